import { AreaLayout } from "./AreaLayout";

/** The customer console: menu from GET /user/rolemenu. */
export function ConsoleLayout() {
  return <AreaLayout area="console" />;
}
