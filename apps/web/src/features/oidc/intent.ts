/** Where a flow was started from, so that /callback/auth knows where an error belongs. */
const INTENT_KEY = "burrow.oidc.intent";
export type OidcIntent = "login" | "bind";
export const rememberIntent = (intent: OidcIntent) => sessionStorage.setItem(INTENT_KEY, intent);
export const takeIntent = (): OidcIntent => {
  const v = sessionStorage.getItem(INTENT_KEY);
  sessionStorage.removeItem(INTENT_KEY);
  return v === "bind" ? "bind" : "login";
};
