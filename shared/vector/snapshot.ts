/**
 * Where the local index keeps its snapshot. Deno's entry passes a file-backed
 * store (`.data/`); workerd has no file system, so there the index lives in
 * memory only.
 */
export interface SnapshotStore {
  readonly location: string;
  load(): Promise<string | undefined>;
  save(text: string): Promise<void>;
}
