import { mostInformativeSentence } from "./text.ts";
import type { OfflineTask } from "./types.ts";

/**
 * For requests that name no prompt (a plain `openai` client call): an honest
 * extractive reply that says it comes from the offline model, never a
 * pretended answer.
 */
export const genericTask: OfflineTask = {
  reply({ user }) {
    const sentence = mostInformativeSentence(user);
    return sentence
      ? `(offline model) ${sentence}`
      : "(offline model) The message had no text to work from.";
  },
};
