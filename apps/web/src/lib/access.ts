import { type MenuItem, menuPaths, normalizeMenuPath, Role } from "@burrow/contract";

/** Where the admin area lives (DESIGN.md §4); admin menu paths are relative to it. */
export const ADMIN_BASE = "/admin";

/**
 * The menu key of a location: its normalised path relative to the area's base.
 * @param pathname location pathname
 * @param base "" for the customer area, {@link ADMIN_BASE} for the admin area
 */
export function menuKeyOf(pathname: string, base = ""): string {
  return normalizeMenuPath(pathname, base);
}

/**
 * Whether a location is allowed by the area's fetched menu (SPEC §2, §6).
 * @param menu the area's menu as the server sent it
 * @param pathname location pathname
 * @param base the area's base
 */
export function canAccessPath(menu: MenuItem[], pathname: string, base = ""): boolean {
  return menuPaths(menu).has(menuKeyOf(pathname, base));
}

/** Key of the submenu that holds a menu item's children. */
export const groupKey = (item: MenuItem) => `group:${item.id}`;

/**
 * The submenus to open so that the selected entry is visible.
 * @param menu the area's menu
 * @param selectedKey normalised path of the current location
 * @returns keys of the submenus on the way to it (outermost first), or [] when it is top-level/absent
 */
export function openKeysFor(menu: MenuItem[], selectedKey: string): string[] {
  const walk = (items: MenuItem[], trail: string[]): string[] | null => {
    for (const item of items) {
      if (item.children?.length) {
        const found = walk(item.children, [...trail, groupKey(item)]);
        if (found) return found;
      } else if (normalizeMenuPath(item.path) === selectedKey) {
        return trail;
      }
    }
    return null;
  };
  return walk(menu, []) ?? [];
}

/** Access flags derived from the signed-in user (ant-design-pro's access.ts). */
export function accessOf(user: { role: number } | undefined) {
  const role = user?.role ?? 0;
  return {
    /** support staff and managers may open the admin area */
    canEnterAdmin: role >= Role.Support,
    /** only managers change users */
    canManageUsers: role === Role.Manager,
    /** only managers write under /super (nodes, tunnels, downloads…); staff read where the server lets them */
    canWrite: role === Role.Manager,
  };
}
