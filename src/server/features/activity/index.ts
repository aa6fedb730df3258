export { type Actor, actorOf, changesOf, recordActivity } from "./record.js";
export { activityRoutes } from "./routes.js";
