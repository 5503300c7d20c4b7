import { type PageQuery, type ShieldBody, TunnelsApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

/** 访客防护's queries and writes (GET/PUT /user/tun/{tunid}/shield, its bans). */
export const shieldKeys = {
  all: ["tunnel-shield"] as const,
  setting: (tunId: number) => [...shieldKeys.all, tunId, "setting"] as const,
  bans: (tunId: number) => [...shieldKeys.all, tunId, "bans"] as const,
};

export const shieldQuery = (tunId: number) =>
  queryOptions({
    queryKey: shieldKeys.setting(tunId),
    queryFn: ({ signal }) => api.call(TunnelsApi.getUserTunTunidShield, { params: { tunid: tunId } }, { signal }),
  });

export const shieldBansQuery = (tunId: number, page: PageQuery) =>
  queryOptions({
    queryKey: [...shieldKeys.bans(tunId), page],
    queryFn: ({ signal }) =>
      api.call(TunnelsApi.getUserTunTunidShieldBans, { params: { tunid: tunId }, query: page }, { signal }),
  });

export const saveShield = (tunId: number, body: ShieldBody) =>
  api.call(TunnelsApi.putUserTunTunidShield, { params: { tunid: tunId }, body });

export const liftShieldBan = (tunId: number, banId: number) =>
  api.call(TunnelsApi.deleteUserTunTunidShieldBansBanid, { params: { tunid: tunId, banid: banId } });
