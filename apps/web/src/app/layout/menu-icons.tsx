import type { MenuIconKey } from "@burrow/contract";
import {
  type RemixiconComponentType,
  RiAccountCircleLine,
  RiArrowGoBackLine,
  RiArticleLine,
  RiBardLine,
  RiBillLine,
  RiCoinsLine,
  RiCustomerService2Line,
  RiDownloadLine,
  RiGlobalLine,
  RiGroupLine,
  RiHomeGearLine,
  RiHomeLine,
  RiLineChartLine,
  RiListCheck,
  RiMegaphoneLine,
  RiNodeTree,
  RiReceiptLine,
  RiServerLine,
  RiSettings3Line,
  RiShieldKeyholeLine,
  RiShieldLine,
  RiShoppingBagLine,
  RiStore2Line,
  RiTicketLine,
  RiUser3Line,
  RiUserLine,
  RiUserSettingsLine,
  RiUserSharedLine,
  RiVerifiedBadgeLine,
  RiWallet3Line,
  RiWalletLine,
} from "@remixicon/react";

/** Every icon key of SPEC §3 → its Remix icon. `Record` makes the compiler check that none is missing. */
export const menuIcons: Record<MenuIconKey, RemixiconComponentType> = {
  home: RiHomeLine,
  shield: RiShieldLine,
  list: RiListCheck,
  node: RiNodeTree,
  bill: RiBillLine,
  wallet: RiWalletLine,
  shippingBag: RiShoppingBagLine,
  account: RiAccountCircleLine,
  verify: RiVerifiedBadgeLine,
  userShared: RiUserSharedLine,
  userSetting: RiUserSettingsLine,
  user: RiUserLine,
  userNormal: RiUser3Line,
  bardLine: RiBardLine,
  gobackLine: RiArrowGoBackLine,
  homeGear: RiHomeGearLine,
  coins: RiCoinsLine,
  server: RiServerLine,
  store: RiStore2Line,
  service: RiCustomerService2Line,
  article: RiArticleLine,
  ticket: RiTicketLine,
  setting: RiSettings3Line,
  market: RiMegaphoneLine,
  group: RiGroupLine,
  wallet3: RiWallet3Line,
  invoice: RiReceiptLine,
  download: RiDownloadLine,
  domain: RiGlobalLine,
  ssl: RiShieldKeyholeLine,
  traffic: RiLineChartLine,
};

/**
 * The icon of a menu entry; unknown keys (a newer server) fall back to the list icon. antd's Menu
 * passes its icon class in `className`, which must reach the svg.
 */
export function MenuIcon({ name, className }: { name: string; className?: string }) {
  const Icon = menuIcons[name as MenuIconKey] ?? RiListCheck;
  return <Icon size={18} className={className} aria-hidden />;
}
