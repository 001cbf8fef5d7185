// A run's idle window: how long a run may be quiet and still be running. Between two
// requests an agent runs its tools, for seconds or longer, and the run goes on. Only evidence
// joins requests into runs (ADR 19); this window only says when a run counts as finished,
// for its status in the UI and for closing its span in the OTLP push.
export const RUN_IDLE_MS = 30_000;
