import type { SiteSettings } from "@burrow/contract";
import { VerifyModeLabel } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Card, Descriptions, type DescriptionsProps, Switch } from "antd";
import { Link } from "react-router";
import { updateVerifySetting, verifyKeys } from "@/features/verify/verify.api";
import { ADMIN_BASE } from "@/lib/access";
import { feedback } from "@/lib/feedback";
import { settingsKeys } from "../settings.api";
import { FromEnv } from "./FromEnv";

/** Whether creating a tunnel needs real-name verification (changed here, audited), and how it is done. */
export function VerifyCard({ s, canWrite }: { s: SiteSettings; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: updateVerifySetting,
    onSuccess: async () => {
      feedback.success("设置已保存");
      await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      await queryClient.invalidateQueries({ queryKey: verifyKeys.setting() });
    },
  });
  const items: DescriptionsProps["items"] = [
    {
      key: "required",
      label: "创建隧道需要实名认证",
      children: (
        <Switch
          aria-label="创建隧道需要实名认证"
          checked={s.verify.required_for_tunnels}
          disabled={!canWrite}
          loading={toggle.isPending}
          onChange={(on) => toggle.mutate({ required_for_tunnels: on })}
        />
      ),
    },
    {
      key: "mode",
      label: "认证方式",
      children: (
        <FromEnv vars={["VERIFY_PROVIDER", "VERIFY_URL"]}>
          {VerifyModeLabel[s.verify.mode]}
          {s.verify.mode === "manual" ? (
            <>
              {" "}
              <Link to={`${ADMIN_BASE}/verify/list`}>实名审核</Link>
            </>
          ) : null}
        </FromEnv>
      ),
    },
  ];
  return (
    <Card title="实名认证" size="small">
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}
