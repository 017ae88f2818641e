import { z } from "zod";

/** One earlier turn of a conversation, as chat's messages and Responses' input both give it. */
export type Turn = { role: "user" | "assistant"; text: string };

/** What the pipeline answers: the last user message, and the turns before it. */
export type Conversation = { question: string; history: Turn[] };

/** Tools: refused with a 400 when there are any to call (`tools.ts`), never dropped. */
export const toolsSchema = z.array(z.unknown(), { error: "must be an array" }).nullish().meta({
  description: "Refused (400): sift calls no tools. An empty list, or any with " +
    '`tool_choice: "none"`, is served',
});
