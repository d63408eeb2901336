/**
 * The templates for `pulumi new` (templates/<language>), as files: the package ships them, each is
 * a Pulumi template (`${PROJECT}` and `${DESCRIPTION}` where the project's name and description go,
 * a `template:` section that asks for the API's URL and the token, a secret) with the plugin
 * declaration its language's guide gives, each holds the README's program (a VPC, a subnet, a
 * MySQL database over TLS open to the subnet, the same three outputs), and each asks for the
 * versions this package is built and tested with. The TypeScript template is the README's project
 * (examples/new-project) but for its name and description. What the templates do when a user runs
 * them: test/e2e/templates.e2e.test.ts and test/sdks/templates.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { jsYaml } from "../../scripts/docs/yaml";
import { PLUGINS_YAML, PROVIDER_PLUGIN_YAML } from "../../provider/launch/plugins";
import { REPO_ROOT } from "../support/engine";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const repoPackage = JSON.parse(read("package.json"));
const LANGUAGES = ["go", "python", "typescript", "yaml"];
/** Each template's program file(s) and the plugin declaration it carries. */
const TEMPLATES: Record<string, { program: string; plugins: string; runtime: string }> = {
  typescript: { program: "index.ts", plugins: PLUGINS_YAML, runtime: "nodejs" },
  yaml: { program: "Pulumi.yaml", plugins: PROVIDER_PLUGIN_YAML, runtime: "yaml" },
  python: { program: "infra.py", plugins: PROVIDER_PLUGIN_YAML, runtime: "python" },
  go: { program: "main.go", plugins: PROVIDER_PLUGIN_YAML, runtime: "go" },
};
/** A plugin declaration's lines, without the comment a template may add to its entry. */
const withoutComments = (text: string) => text.replace(/ +#.*$/gm, "");

test("the package ships templates/, one folder a language", () => {
  expect(repoPackage.files).toContain("templates/");
  expect(fs.readdirSync(path.join(REPO_ROOT, "templates")).sort()).toEqual(LANGUAGES);
});

test.each(LANGUAGES)("the %s template is a Pulumi template with the plugin declaration its guide gives", (language) => {
  const text = read(`templates/${language}/Pulumi.yaml`);
  const project = jsYaml().load(text) as Record<string, any>;
  expect(project.name).toBe("${PROJECT}");
  expect(project.description).toBe("${DESCRIPTION}");
  expect(project.runtime === TEMPLATES[language]!.runtime || project.runtime?.name === TEMPLATES[language]!.runtime).toBe(true);
  expect(project.template.description).toMatch(new RegExp(`^pulumi-compute in \\S`));
  expect(project.template.config).toEqual({
    "compute:apiUrl": { description: expect.stringContaining("/v4") },
    "compute:token": { description: expect.stringContaining("token"), secret: true },
  });
  expect(withoutComments(text)).toContain(withoutComments(TEMPLATES[language]!.plugins));
});

test("the python template runs in a virtual environment of the project's, from its requirements.txt, with the package's Python SDK", () => {
  const project = jsYaml().load(read("templates/python/Pulumi.yaml")) as Record<string, any>;
  expect(project.runtime).toEqual({ name: "python", options: { toolchain: "pip", virtualenv: "venv" } });
  // The pins of the SDK's own tests, and the SDK from the installed npm package.
  const pins = read("sdks/python/tests/requirements.txt").trim().split("\n");
  expect(read("templates/python/requirements.txt").trim().split("\n").sort()).toEqual(
    [...pins, "./node_modules/pulumi-compute/sdks/python"].sort(),
  );
});

test("the go template's module takes the package's Go module from node_modules", () => {
  const mod = read("templates/go/go.mod");
  expect(mod).toMatch(/^module \$\{PROJECT\}$/m);
  expect(mod).toMatch(/^require github\.com\/pulumi-compute\/pulumi-compute\/sdks\/go v0\.1\.0$/m);
  expect(mod).toMatch(/^replace github\.com\/pulumi-compute\/pulumi-compute\/sdks\/go => \.\/node_modules\/pulumi-compute\/sdks\/go$/m);
});

test("the typescript template is the README's project, examples/new-project, but for its name and description", () => {
  for (const file of ["index.ts", "index.test.ts", "tsconfig.json"]) {
    expect({ file, same: read(`templates/typescript/${file}`) === read(`examples/new-project/${file}`) }).toEqual({ file, same: true });
  }
  const template = JSON.parse(read("templates/typescript/package.json"));
  const example = JSON.parse(read("examples/new-project/package.json"));
  expect(template).toEqual({ ...example, name: "${PROJECT}", description: "${DESCRIPTION}" });
  expect(fs.readdirSync(path.join(REPO_ROOT, "templates/typescript")).sort()).toEqual(
    [...fs.readdirSync(path.join(REPO_ROOT, "examples/new-project"))].sort(),
  );
});

test("the typescript and yaml templates ask for this version of pulumi-compute (the registry's form) and the Pulumi SDK it is tested with", () => {
  for (const language of ["typescript", "yaml"]) {
    const pkg = JSON.parse(read(`templates/${language}/package.json`));
    expect({ language, name: pkg.name, dependencies: pkg.dependencies }).toEqual({
      language,
      name: "${PROJECT}",
      dependencies: { "@pulumi/pulumi": repoPackage.devDependencies["@pulumi/pulumi"], "pulumi-compute": `^${repoPackage.version}` },
    });
    expect(pkg.scripts.test).toBeDefined();
  }
});

test.each(LANGUAGES)(
  "the %s template holds the README's program: the VPC, its subnet, the app's two instances at their VPC addresses and their zone, a MySQL database over TLS open to the subnet",
  (language) => {
    const program = read(`templates/${language}/${TEMPLATES[language]!.program}`);
    for (const value of [
      '"app-net"',
      '"us-iad"',
      '"data"',
      '"10.0.2.0/24"',
      '"app-db"',
      '"g6-nanode-1"',
      '"mysql/8"',
      '"10.0.1.11"',
      '"10.0.1.12"',
      '"app.example"',
    ]) {
      const bare = value.slice(1, -1);
      expect({ value, found: program.includes(language === "yaml" ? `: ${bare}` : value) }).toEqual({ value, found: true });
    }
    const tls = {
      typescript: "sslConnection: true",
      yaml: "sslConnection: true",
      python: "ssl_connection=True",
      go: "SslConnection: pulumi.Bool(true)",
    };
    expect(program).toContain(tls[language as keyof typeof tls]);
    for (const output of ["dbHost", "dbPort", "dbPassword"])
      expect({ output, found: program.includes(output) }).toEqual({ output, found: true });
  },
);
