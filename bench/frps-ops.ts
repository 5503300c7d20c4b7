// What frps sends the plugin for Login, NewProxy and NewUserConn (frp-protocol.md), for one
// customer's tcp tunnel: the bodies the plugin benches replay.
export interface OpTarget {
  uid: number;
  token: string;
  tun_id: number;
  port: number;
}

const RUN_ID = "8e2f0c4b9a1d7e35";
const userInfo = (u: OpTarget) => ({ user: `u_${u.uid}`, metas: { token: u.token }, run_id: RUN_ID });

export const frpsBodies = {
  Login: (u: OpTarget) => ({
    version: "0.70.1",
    hostname: "nas",
    os: "linux",
    arch: "amd64",
    user: `u_${u.uid}`,
    privilege_key: "0123456789abcdef0123456789abcdef",
    timestamp: 1753279200,
    metas: { token: u.token },
    client_spec: {},
    pool_count: 1,
    client_address: "203.0.113.7:51234",
  }),
  NewProxy: (u: OpTarget) => ({
    user: userInfo(u),
    proxy_name: `u_${u.uid}.t_${u.tun_id}`,
    proxy_type: "tcp",
    remote_port: u.port,
  }),
  NewUserConn: (u: OpTarget) => ({
    user: userInfo(u),
    proxy_name: `u_${u.uid}.t_${u.tun_id}`,
    proxy_type: "tcp",
    remote_addr: "198.51.100.9:40112",
  }),
};
export type FrpsOp = keyof typeof frpsBodies;
