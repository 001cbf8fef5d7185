// `GET /v1/models`: a small fixed list in the API's page shape (`{object:'list', data}`).
import type { Model } from 'openai/resources/models';

const CREATED = 1_744_316_542;

const MODELS: Model[] = ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o-mini', 'o4-mini', 'gpt-5'].map((id, i) => ({
  id,
  object: 'model',
  created: CREATED + i * 86_400,
  owned_by: 'system',
}));

export function modelList(): { object: 'list'; data: Model[] } {
  return { object: 'list', data: MODELS };
}

export function findModel(id: string): Model | undefined {
  return MODELS.find((m) => m.id === id);
}
