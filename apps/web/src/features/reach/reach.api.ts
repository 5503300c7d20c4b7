import { ReachApi } from "@burrow/contract";
import { api } from "@/api/client";

/** POST /user/tun/{tunid}/reach: 外网检测 (at most 10 an hour; answers within 10 s) */
export const checkReach = (tunId: number) => api.call(ReachApi.postUserTunTunidReach, { params: { tunid: tunId } });
