/** The README's resource reference is generated from the provider specs and must be current. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { END, START, renderReference, withReference } from "../../scripts/docs/reference";
import { RESOURCE_SPECS } from "../../provider/specs";

const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

test("README.md holds the reference generated from the specs (run `npm run generate`)", () => {
  expect(readme).toBe(withReference(readme));
});

test("every resource has a table naming each input, what replaces, and the timeouts", () => {
  const reference = renderReference();
  for (const spec of Object.values(RESOURCE_SPECS)) {
    expect(reference).toContain(`### \`${spec.name}\``);
    for (const [name, field] of Object.entries(spec.inputs)) {
      expect(reference).toMatch(new RegExp(`\\| \`${name}\` \\| [^|]*${field.replaceOnChange ? "\\*\\*replaces\\*\\*" : "in place"}`));
    }
  }
  expect(reference.startsWith(START) && reference.endsWith(END)).toBe(true);
});
