export { type Actor, actorOf, changesOf, recordActivity } from "./record.js";
