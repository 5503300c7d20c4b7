import { pageRoute } from "@/lib/route-types";

export const sslRoutes = [pageRoute("ssl", "SSL 证书", () => import("./pages/SslPage"), "SslPage")];
