// A recording Loupe will not open for writing, for a reason the message says in full
// (damaged, in use): openDb passes these on as they are, without its generic prefix.
export class RefusedRecordingError extends Error {}
