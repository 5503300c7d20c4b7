import { type ContestedClaim, ProcessStatus } from "@burrow/contract";
import { Alert, Space, Tag } from "antd";
import { Link } from "react-router";
import { ADMIN_BASE } from "@/lib/access";
import { formatTime } from "@/lib/format";
import { VerifyStatusTag } from "./VerifyStatusTag";

/**
 * The other accounts claiming the same ID number: someone is using a number that is not theirs,
 * so the reviewer finds out whose it is before approving (an approval is refused once another
 * account has verified it).
 */
export function ContestedAlert({ claims }: { claims: ContestedClaim[] }) {
  if (!claims.length) return null;
  const verified = claims.some((c) => c.status === ProcessStatus.Done);
  const refused = claims.filter((c) => c.refused_at).length;
  return (
    <Alert
      type={verified ? "error" : "warning"}
      showIcon
      style={{ marginTop: 12 }}
      title={
        verified
          ? "该身份证号码已由其他账号完成实名认证，此申请应驳回"
          : refused === claims.length
            ? `另有 ${refused} 个账号提交该身份证号码时因本申请占用而被拒绝，请核实证件持有人`
            : `该身份证号码同时被 ${claims.length} 个其他账号提交，请核实证件持有人`
      }
      description={
        <Space wrap>
          {claims.map((c) => (
            <span key={c.uid} data-testid={`contested-${c.uid}`}>
              <Link to={`${ADMIN_BASE}/usermgr/list/${c.uid}`}>UID {c.uid}</Link>{" "}
              {c.refused_at ? (
                <Tag color="orange">{formatTime(c.refused_at)} 提交被拒（号码被占用）</Tag>
              ) : (
                <VerifyStatusTag status={c.status} />
              )}
            </span>
          ))}
        </Space>
      }
    />
  );
}
