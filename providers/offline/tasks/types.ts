/** What a task sees of a chat request: the text of its messages and the format asked for. */
export type TaskInput = {
  /** All system and developer messages, joined. */
  system: string;
  /** The last user message. */
  user: string;
  /** Every message as plain text, in order. */
  messages: readonly { role: string; content: string }[];
  /** The request set `response_format` to `json_schema` or `json_object`. */
  json: boolean;
  /** The version from `x-sift-prompt: <id>@<version>`, if one was sent. */
  promptVersion: number | undefined;
};

/**
 * One job the offline model can do, chosen by the prompt id. `reply` is what
 * a well-behaved model writes; `malformed` (optional) is what a broken one
 * writes for the `malformed` fault, when the default garbage does not fit.
 */
export type OfflineTask = {
  reply(input: TaskInput): string;
  malformed?(input: TaskInput, reply: string): string;
};
