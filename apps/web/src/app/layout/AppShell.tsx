import { type MenuItem, normalizeMenuPath, type UserInfo } from "@burrow/contract";
import { RiMenuFoldLine, RiMenuUnfoldLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Badge, Button, Drawer, Layout, Menu, type MenuProps } from "antd";
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { NoticeBell } from "@/features/notices/components/NoticeBell";
import { siteQuery } from "@/features/shell/shell.api";
import { unreadTicketsQuery } from "@/features/tickets/tickets.api";
import { useIsPhone } from "@/hooks/useIsPhone";
import { groupKey, menuKeyOf, openKeysFor } from "@/lib/access";
import { MenuIcon } from "./menu-icons";
import { UserMenu } from "./UserMenu";

type AntMenuItem = Required<MenuProps>["items"][number];

/** A menu label with a count beside it (unread ticket replies), or the plain name. */
function labelOf(name: string, count: number | undefined): ReactNode {
  if (!count) return name;
  return (
    <span className="shell-menu-badged">
      {name} <Badge count={count} size="small" aria-label={`${count} 条未读`} />
    </span>
  );
}

/**
 * Leaf items are real links (`<a href>`, antd stretches them over the whole item): the address shows
 * on hover and ctrl/middle-click opens a new tab; a plain click is routed in-app by the Link.
 */
function toAntItems(items: MenuItem[], base: string, badges: Record<string, number> = {}): AntMenuItem[] {
  return items.map((item) =>
    item.children?.length
      ? {
          key: groupKey(item),
          icon: <MenuIcon name={item.icon} />,
          label: item.name,
          children: toAntItems(item.children, base, badges),
        }
      : {
          key: normalizeMenuPath(item.path),
          icon: <MenuIcon name={item.icon} />,
          label: <Link to={`${base}${item.path}`}>{labelOf(item.name, badges[normalizeMenuPath(item.path)])}</Link>,
        },
  );
}

function pathsByKey(items: MenuItem[], base: string, out = new Map<string, string>()): Map<string, string> {
  for (const item of items) {
    if (item.children?.length) pathsByKey(item.children, base, out);
    else out.set(normalizeMenuPath(item.path), `${base}${item.path}`);
  }
  return out;
}

/** Whether a menu (children included) has an item at this path. */
function hasMenuPath(items: MenuItem[], path: string): boolean {
  return items.some((i) => i.path === path || hasMenuPath(i.children ?? [], path));
}

export interface AppShellProps {
  /** the area's menu as the server sent it */
  menu: MenuItem[];
  /** "" for the customer console, "/admin" for the admin area */
  base: string;
  user: UserInfo;
  children: ReactNode;
}

/**
 * The console shell (SPEC §2 "Shell"): a collapsible sider with the brand and the server's menu, a
 * header with the collapse toggle and the user dropdown, and a content area that scrolls to the top
 * on every route change. On a phone (below 768 px) the menu is a drawer over the page instead: an
 * inline sider left about 150 px for the content there. It closes after a navigation.
 */
export function AppShell({ menu, base, user, children }: AppShellProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { data: site } = useQuery(siteQuery());
  const [collapsed, setCollapsed] = useState(false);
  const phone = useIsPhone();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const contentRef = useRef<HTMLElement>(null);

  const selectedKey = menuKeyOf(pathname, base);
  // The customer's unread staff replies, as a badge on the tickets item (customer console only).
  const hasTickets = base === "" && hasMenuPath(menu, "/help/ticket");
  const { data: unread } = useQuery({ ...unreadTicketsQuery(), enabled: hasTickets });
  const unreadCount = unread?.count ?? 0;
  const items = useMemo(() => toAntItems(menu, base, { "/help/ticket": unreadCount }), [menu, base, unreadCount]);
  const targets = useMemo(() => pathsByKey(menu, base), [menu, base]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(menu, selectedKey));

  // Open the submenu holding the current page when the route changes (keeping others as they are).
  useEffect(() => {
    const needed = openKeysFor(menu, selectedKey);
    if (needed.length) setOpenKeys((keys) => Array.from(new Set([...keys, ...needed])));
  }, [menu, selectedKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every route change by design
  useLayoutEffect(() => {
    contentRef.current?.scrollTo({ top: 0, left: 0 });
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname]);

  // The phone drawer closes once the page changed (a link, the keyboard, the back button)…
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every route change by design
  useEffect(() => setDrawerOpen(false), [pathname]);
  // …and does not linger behind a window widened past phone size.
  useEffect(() => {
    if (!phone) setDrawerOpen(false);
  }, [phone]);

  // A mouse click is the link's own; Enter/Space on the focused item (antd's keyboard navigation)
  // arrives here without one, so it navigates the same way.
  const onMenuClick: MenuProps["onClick"] = ({ key, domEvent }) => {
    // A tap on the page already open changes no route: the drawer closes here too.
    setDrawerOpen(false);
    if (!("key" in domEvent)) return;
    const to = targets.get(key);
    if (to && to !== pathname) void navigate(to);
  };

  const brand = site?.brand ?? "";
  const nav = (wide: boolean) => (
    <>
      <Link
        to="/dashboard"
        className="shell-logo"
        aria-label={brand ? `${brand} 控制台首页` : "控制台首页"}
        onClick={() => setDrawerOpen(false)}
      >
        <img src="/favicon.svg" alt="" width={28} height={28} />
        {wide && <span className="shell-logo-text">{brand}</span>}
      </Link>
      <Menu
        className="shell-menu"
        mode="inline"
        items={items}
        selectedKeys={[selectedKey]}
        openKeys={openKeys}
        onOpenChange={(keys) => setOpenKeys(keys)}
        onClick={onMenuClick}
      />
    </>
  );
  const open = phone ? drawerOpen : !collapsed;
  return (
    <Layout className="shell" hasSider={!phone}>
      {phone ? (
        <Drawer
          className="shell-drawer"
          placement="left"
          size={260}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          closable={false}
          title={null}
          styles={{ body: { padding: 0, display: "flex", flexDirection: "column" } }}
        >
          <nav aria-label="侧边菜单" className="shell-drawer-nav">
            {nav(true)}
          </nav>
        </Drawer>
      ) : (
        <Layout.Sider
          className="shell-sider"
          theme="light"
          width={220}
          collapsedWidth={64}
          collapsible
          trigger={null}
          collapsed={collapsed}
          breakpoint="xl"
          onBreakpoint={(broken) => setCollapsed(broken)}
          aria-label="侧边菜单"
        >
          {nav(!collapsed)}
        </Layout.Sider>
      )}
      <Layout className="shell-main">
        <Layout.Header className="shell-header">
          <Button
            type="text"
            className="shell-toggle"
            aria-label={open ? "折叠菜单" : "展开菜单"}
            aria-expanded={open}
            icon={open ? <RiMenuFoldLine size={20} /> : <RiMenuUnfoldLine size={20} />}
            onClick={() => (phone ? setDrawerOpen((o) => !o) : setCollapsed((c) => !c))}
          />
          <div className="shell-header-end">
            <NoticeBell />
            <UserMenu user={user} />
          </div>
        </Layout.Header>
        <Layout.Content ref={contentRef} className="shell-content">
          <div className="shell-content-inner">{children}</div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
