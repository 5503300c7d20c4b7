import { useQueryClient } from "@tanstack/react-query";
import { useLocation, useNavigate } from "react-router";
import { startSession } from "../session";
import { LoginPage } from "./LoginPage";

/** /login inside the console's router (after signing out, a session that ended, a refused third-party sign-in). */
export function LoginRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // A refused third-party sign-in comes back from /callback/auth with its message.
  const oidcError = (useLocation().state as { oidcError?: unknown } | null)?.oidcError;
  return (
    <LoginPage
      onSignedIn={(token) => {
        startSession(queryClient, token);
        void navigate("/dashboard", { replace: true });
      }}
      go={(path) => void navigate(path)}
      notice={typeof oidcError === "string" ? oidcError : undefined}
    />
  );
}
