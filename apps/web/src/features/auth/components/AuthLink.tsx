import type { ReactNode } from "react";
import { isModifiedClick } from "@/lib/links";

/**
 * A link between the sign-in pages (`<a href>`): a plain click goes through `go` (the router, or
 * /login's light host loading the console), a modified click (new tab) stays the browser's.
 */
export function AuthLink({ to, go, children }: { to: string; go: (path: string) => void; children: ReactNode }) {
  return (
    <a
      className="auth-link"
      href={to}
      onClick={(e) => {
        if (isModifiedClick(e)) return;
        e.preventDefault();
        go(to);
      }}
    >
      {children}
    </a>
  );
}
