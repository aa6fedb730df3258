export { mailPreferenceRoutes } from "./routes.js";
export { oneClickUnsubscribeUrl, unsubscribePageUrl } from "./token.js";
