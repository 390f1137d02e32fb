// The scopes a Tenant's bootstrap key needs for the members and suppressions it declares, added to
// the key's default scopes only when the tenant declares some (no tenant key holds more than it uses).
// Not `suppressions:wipe`: the provider deletes one suppression at a time.
export const MEMBER_SCOPES = ["accounts:members:read", "accounts:members:add", "accounts:members:remove"];
export const SUPPRESSION_SCOPES = ["suppressions:read", "suppressions:write", "suppressions:delete"];

export function peopleScopes(args: { members?: object; suppressions?: object }): string[] {
  const any = (r: object | undefined) => r !== undefined && Object.keys(r).length > 0;
  return [...(any(args.members) ? MEMBER_SCOPES : []), ...(any(args.suppressions) ? SUPPRESSION_SCOPES : [])];
}
