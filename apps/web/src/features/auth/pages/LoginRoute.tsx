import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { startSession } from "../session";
import { LoginPage } from "./LoginPage";

/** /login inside the console's router (after signing out, or a session that ended). */
export function LoginRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <LoginPage
      onSignedIn={(token) => {
        startSession(queryClient, token);
        void navigate("/dashboard", { replace: true });
      }}
      go={(path) => void navigate(path)}
    />
  );
}
