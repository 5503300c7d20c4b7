import { AreaLayout } from "./AreaLayout";

/** The admin area under /admin: menu from GET /super/roleMenu (30004 for non-staff → /403). */
export function AdminLayout() {
  return <AreaLayout area="admin" />;
}
