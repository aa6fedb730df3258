export { mailPreferenceRoutes, ONE_CLICK_UNSUBSCRIBE_PATH } from "./routes.js";
export { oneClickUnsubscribeUrl, unsubscribePageUrl } from "./token.js";
