/**
 * One realistic model reply and what a careful person reads from it;
 * `null` when a person could not say (the parser must report it unreadable).
 * `style` names what the reply exercises, for the test's name.
 */
export type CorpusReply<T> = { style: string; reply: string; expected: T | null };
