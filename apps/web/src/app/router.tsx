import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { FullPageSpin } from "@/components/FullPageSpin";
import { accountRoutes } from "@/features/account/account.routes";
import { affiliateAdminRoutes, affiliateCustomerRoutes } from "@/features/affiliate/affiliate.routes";
import { assistantRoutes } from "@/features/assistant/assistant.routes";
import { auditRoutes } from "@/features/audit/audit.routes";
import { authRoutes } from "@/features/auth/auth.routes";
import { dashboardRoutes } from "@/features/dashboard/dashboard.routes";
import { docsRoutes } from "@/features/docs/docs.routes";
import { domainsAdminRoutes, domainsCustomerRoutes } from "@/features/domains/domains.routes";
import { downloadsAdminRoutes, downloadsCustomerRoutes } from "@/features/downloads/downloads.routes";
import { homeAdminRoutes } from "@/features/home/home.routes";
import { invoicesAdminRoutes, invoicesCustomerRoutes } from "@/features/invoices/invoices.routes";
import { leavingAdminRoutes, leavingCustomerRoutes } from "@/features/leaving/leaving.routes";
import { marketingRoutes } from "@/features/marketing/marketing.routes";
import { nodesAdminRoutes, nodesCustomerRoutes } from "@/features/nodes/nodes.routes";
import { noticesRoutes } from "@/features/notices/notices.routes";
import { oidcAdminRoutes, oidcCallbackRoute } from "@/features/oidc/oidc.routes";
import { ordersCustomerRoutes, ordersRoutes, payResultRoute } from "@/features/orders/orders.routes";
import { outboxAdminRoutes } from "@/features/outbox/outbox.routes";
import { overviewRoutes } from "@/features/overview/overview.routes";
import { plansRoutes } from "@/features/plans/plans.routes";
import { settingsRoutes } from "@/features/settings/settings.routes";
import { sslRoutes } from "@/features/ssl/ssl.routes";
import { storeRoutes } from "@/features/store/store.routes";
import { subscriptionsRoutes } from "@/features/subscriptions/subscriptions.routes";
import { ticketsAdminRoutes, ticketsCustomerRoutes } from "@/features/tickets/tickets.routes";
import { trafficAdminRoutes, trafficCustomerRoutes } from "@/features/traffic/traffic.routes";
import { tunnelsAdminRoutes, tunnelsCustomerRoutes } from "@/features/tunnels/tunnels.routes";
import { uptimeAdminRoutes, uptimePublicRoutes } from "@/features/uptime/uptime.routes";
import { usermgrRoutes } from "@/features/usermgr/usermgr.routes";
import { verifyAdminRoutes, verifyRoutes } from "@/features/verify/verify.routes";
import { webhooksRoutes } from "@/features/webhooks/webhooks.routes";
import { ADMIN_BASE } from "@/lib/access";
import { lazyComponent, type RouteHandle } from "@/lib/route-types";
import { RootRoute } from "./RootRoute";
import { RouteErrorPage } from "./RouteErrorPage";

/** Customer console pages (paths relative to "/"); access is checked against GET /user/rolemenu. */
const customerRoutes: RouteObject[] = [
  ...dashboardRoutes,
  ...accountRoutes,
  ...webhooksRoutes,
  ...leavingCustomerRoutes,
  ...verifyRoutes,
  ...tunnelsCustomerRoutes,
  ...nodesCustomerRoutes,
  ...trafficCustomerRoutes,
  ...downloadsCustomerRoutes,
  ...docsRoutes,
  ...assistantRoutes,
  ...storeRoutes,
  ...subscriptionsRoutes,
  ...ordersCustomerRoutes,
  ...ticketsCustomerRoutes,
  ...noticesRoutes,
  ...domainsCustomerRoutes,
  ...affiliateCustomerRoutes,
  ...invoicesCustomerRoutes,
  ...sslRoutes,
];

/** Admin pages (paths relative to /admin); access is checked against GET /super/roleMenu. */
const adminRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="view" replace />, handle: { access: "signedIn" } satisfies RouteHandle },
  ...overviewRoutes,
  ...usermgrRoutes,
  ...verifyAdminRoutes,
  ...auditRoutes,
  ...settingsRoutes,
  ...nodesAdminRoutes,
  ...tunnelsAdminRoutes,
  ...domainsAdminRoutes,
  ...trafficAdminRoutes,
  ...downloadsAdminRoutes,
  ...homeAdminRoutes,
  ...plansRoutes,
  ...ordersRoutes,
  ...marketingRoutes,
  ...ticketsAdminRoutes,
  ...affiliateAdminRoutes,
  ...oidcAdminRoutes,
  ...invoicesAdminRoutes,
  ...outboxAdminRoutes,
  ...leavingAdminRoutes,
  ...uptimeAdminRoutes,
  { path: "dash", element: <Navigate to="/dashboard" replace /> },
];

/** The route table of SPEC §2. Every page and layout is lazy-loaded. */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <FullPageSpin />,
    children: [
      { path: "/", element: <Navigate to="/login" replace /> },
      { lazy: lazyComponent(() => import("./layout/PublicLayout"), "PublicLayout"), children: authRoutes },
      { path: "/adm", element: <Navigate to={`${ADMIN_BASE}/view`} replace /> },
      { lazy: lazyComponent(() => import("./layout/ConsoleLayout"), "ConsoleLayout"), children: customerRoutes },
      {
        path: ADMIN_BASE,
        lazy: lazyComponent(() => import("./layout/AdminLayout"), "AdminLayout"),
        children: adminRoutes,
      },
      payResultRoute,
      oidcCallbackRoute,
      ...uptimePublicRoutes,
      {
        path: "/403",
        handle: { title: "无权访问" } satisfies RouteHandle,
        lazy: lazyComponent(() => import("@/features/shell/pages/ForbiddenPage"), "ForbiddenPage"),
      },
      {
        path: "*",
        handle: { title: "页面不存在" } satisfies RouteHandle,
        lazy: lazyComponent(() => import("@/features/shell/pages/NotFoundPage"), "NotFoundPage"),
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
