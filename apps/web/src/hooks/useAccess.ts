import { useQuery } from "@tanstack/react-query";
import { userInfoQuery } from "@/features/account/account.api";
import { accessOf } from "@/lib/access";

/** Access flags of the signed-in user (the shell has already loaded them). */
export function useAccess() {
  const { data: me } = useQuery(userInfoQuery());
  return accessOf(me);
}
