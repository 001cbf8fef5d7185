// What a demo scenario reports back: the runs it wrote (by label) and what the model said.
export interface DemoRun {
  /** The run label (`/s/<label>/v1`) its requests carried. */
  label: string;
  /** Response (or chat completion) ids in the order they were created. */
  responseIds: string[];
  /** The final answer the client received. */
  finalText: string;
}
