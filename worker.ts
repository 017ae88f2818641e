import { createSiftApp } from "./app.ts";

/** The all-in-one Worker: every function on one route table, index and cache in memory. */
export default createSiftApp();
