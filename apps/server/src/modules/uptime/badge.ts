import { type PublicTunnelStatus, UptimeSlugParams, uptimeLevel } from "@burrow/contract";

/** Where a tunnel's SVG badge is served (outside /api: READMEs embed it with no credential). */
export const BADGE_PATH = "/status/t/:slug/badge.svg";

const COLOURS = { green: "#52c41a", amber: "#faad14", red: "#f5222d", none: "#8c8c8c" } as const;

/** Rough text width at 11 px: CJK characters are square, the rest about 7 px. */
const width = (s: string) => [...s].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 12 : 7), 10);

/** Whether a slug is well formed (what the API's params schema accepts). */
export const validSlug = (slug: string) => UptimeSlugParams.safeParse({ slug }).success;

/**
 * "在线 | 99.98%" (or 离线): the state and the 90-day uptime, coloured like the day bars. Only
 * fixed words and a number go in: nothing a customer typed.
 */
export function badgeSvg(s: Pick<PublicTunnelStatus, "online" | "pct">): string {
  const left = s.online ? "在线" : "离线";
  const right = s.pct === null ? "暂无数据" : `${s.pct.toFixed(2)}%`;
  const lw = width(left);
  const rw = width(right);
  const leftColour = s.online ? COLOURS.green : COLOURS.red;
  const rightColour = COLOURS[uptimeLevel(s.pct)];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${left} ${right}"><title>${left} ${right}</title><rect width="${lw}" height="20" fill="${leftColour}"/><rect x="${lw}" width="${rw}" height="20" fill="${rightColour}"/><g fill="#fff" font-family="Verdana,'PingFang SC','Microsoft YaHei',sans-serif" font-size="11" text-anchor="middle"><text x="${lw / 2}" y="14">${left}</text><text x="${lw + rw / 2}" y="14">${right}</text></g></svg>`;
}
