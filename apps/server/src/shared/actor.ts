/** Who made an admin write, for the audit row: the caller and the address the call came from. */
export interface Operator {
  uid: number;
  ip: string;
}
