/**
 * What the resources of one program declare about a shared parent, gathered in the provider
 * process (which serves every resource of a deployment): the rules `FirewallRule`s add to a
 * firewall, whether the program's `Firewall` owns that firewall's rule lists. A resource's
 * `checkShared` reads them to refuse at preview what only the program as a whole gets wrong (two
 * resources managing one thing, a limit counted across resources).
 *
 * A declaration is made by the resource's `declare` hook at check, at diff and after create and
 * update (whichever knows the parent's id), so by the time a child is checked its parent, which it
 * depends on, has declared itself. At the first preview of a new stack a parent made by the same
 * program has no id yet: its children's checks then count only what the others declared.
 */
export class Declarations<T> {
  private readonly groups = new Map<string, Map<string, T>>();

  /** Records `member` of `group` (a firewall's rule `inbound app-https`), replacing an earlier declaration of it. */
  declare(group: string, member: string, value: T): void {
    let members = this.groups.get(group);
    if (!members) this.groups.set(group, (members = new Map()));
    members.set(member, value);
  }

  /** Everything declared in `group`, by member. */
  members(group: string): ReadonlyMap<string, T> {
    return this.groups.get(group) ?? new Map();
  }
}
