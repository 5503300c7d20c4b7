import { type ContestedClaim, ProcessStatus } from "@burrow/contract";
import { Alert, Space } from "antd";
import { Link } from "react-router";
import { ADMIN_BASE } from "@/app/access";
import { VerifyStatusTag } from "./VerifyStatusTag";

/**
 * The other accounts claiming the same ID number: someone is using a number that is not theirs,
 * so the reviewer finds out whose it is before approving (an approval is refused once another
 * account has verified it).
 */
export function ContestedAlert({ claims }: { claims: ContestedClaim[] }) {
  if (!claims.length) return null;
  const verified = claims.some((c) => c.status === ProcessStatus.Done);
  return (
    <Alert
      type={verified ? "error" : "warning"}
      showIcon
      style={{ marginTop: 12 }}
      title={
        verified
          ? "该身份证号码已由其他账号完成实名认证，此申请应驳回"
          : `该身份证号码同时被 ${claims.length} 个其他账号提交，请核实证件持有人`
      }
      description={
        <Space wrap>
          {claims.map((c) => (
            <span key={c.uid}>
              <Link to={`${ADMIN_BASE}/usermgr/list/${c.uid}`}>UID {c.uid}</Link> <VerifyStatusTag status={c.status} />
            </span>
          ))}
        </Space>
      }
    />
  );
}
