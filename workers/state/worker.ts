/** The Durable Object that holds the embedded index and cache for every sift Worker. */
export { SiftState } from "../../adapters/workers/state-object.ts";

/**
 * `sift-state` serves nothing itself: Workers reach its object through
 * their `STATE` binding. Kept apart from the functions so that deploying one
 * of them never touches the class that owns the stored data.
 */
export default {
  fetch(): Response {
    return Response.json(
      { error: { type: "not_found", message: "sift-state has no public routes" } },
      { status: 404 },
    );
  },
};
