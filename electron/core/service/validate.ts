// Requests arrive from outside the process (a browser, a renderer): each handler checks
// the shape it needs and answers `bad_request` with what was wrong, never a stack trace.
import { ApiError } from '../../../shared/api/errors.js';

type Obj = Record<string, unknown>;

export function requestObject(value: unknown): Obj {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ApiError('bad_request', 'the request must be a JSON object');
  return value as Obj;
}

export function optionalString(req: Obj, key: string): string | undefined {
  const v = req[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ApiError('bad_request', `"${key}" must be a string`);
  return v;
}

export function requiredString(req: Obj, key: string): string {
  const v = optionalString(req, key);
  if (v === undefined || v === '') throw new ApiError('bad_request', `"${key}" is required`);
  return v;
}

export function optionalStrings(req: Obj, key: string): string[] | undefined {
  const v = req[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
    throw new ApiError('bad_request', `"${key}" must be a list of strings`);
  return v as string[];
}

export function optionalCount(req: Obj, key: string): number | undefined {
  const v = req[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new ApiError('bad_request', `"${key}" must be a whole number`);
  return v;
}

export function requiredCount(req: Obj, key: string): number {
  const v = optionalCount(req, key);
  if (v === undefined) throw new ApiError('bad_request', `"${key}" is required`);
  return v;
}
