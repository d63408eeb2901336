/**
 * The route helper (`emulator/core/route-table.ts`): a route is its sdk endpoint plus what the
 * emulator adds; filterable fields go with paginated endpoints only; an alias serves a second
 * spelling of the path. The `@ts-expect-error` lines are checked by the build: a handler is typed
 * by its endpoint (answer, body), so they fail it if that typing is lost.
 */
import { VPC_ENDPOINTS } from "../../../sdk/resources/vpcs";
import { aliasOf, globalGrant, route } from "../../../emulator/core/route-table";
import { describeRoutes, routePath } from "../../../emulator/core/routes";

test("a route references its endpoint and holds only the emulator's own details", () => {
  const handler = () => undefined;
  const spec = route(VPC_ENDPOINTS.delete, { grant: globalGrant("add_vpc") }, handler);
  expect(spec).toEqual({ endpoint: VPC_ENDPOINTS.delete, grant: { kind: "global", grant: "add_vpc" }, handler });
  expect(route(VPC_ENDPOINTS.delete, handler)).toEqual({ endpoint: VPC_ENDPOINTS.delete, handler });
  const list = route(VPC_ENDPOINTS.list, { filterable: ["label"] }, () => []);
  expect(list.filterable).toEqual(["label"]);
  expect(routePath(list)).toBe("/vpcs");
});

test("filterable fields go with a paginated endpoint, and a paginated endpoint needs them", () => {
  // @ts-expect-error a paginated endpoint's route states its filterable fields
  expect(() => route(VPC_ENDPOINTS.list, () => [])).toThrow(/vpcs\.list: filterable fields/);
  // @ts-expect-error only a paginated endpoint takes filterable fields
  expect(() => route(VPC_ENDPOINTS.get, { filterable: ["label"] }, () => undefined as never)).toThrow(/vpcs\.get: filterable fields/);
});

test("an alias serves the endpoint under a second path, its note added to the summary", () => {
  const spec = aliasOf(
    route(VPC_ENDPOINTS.delete, () => undefined),
    { path: "/vpcs/by-id/{vpcId}", note: " (second spelling)" },
  );
  expect(routePath(spec)).toBe("/vpcs/by-id/{vpcId}");
  expect(describeRoutes([spec])[0]).toMatchObject({
    method: "DELETE",
    path: "/v4/vpcs/by-id/{vpcId}",
    summary: `${VPC_ENDPOINTS.delete.summary} (second spelling)`,
    scopes: ["vpc:read_write"],
  });
});

test("handlers are typed by their endpoint (checked by the build)", () => {
  // @ts-expect-error a VPC's answer is a VPC
  route(VPC_ENDPOINTS.get, () => ({ id: 1 }));
  // @ts-expect-error a paginated endpoint's handler gives its items, not a page
  route(VPC_ENDPOINTS.list, { filterable: [] }, () => ({ data: [], page: 1, pages: 1, results: 0 }));
  route(VPC_ENDPOINTS.subnets.create, (ctx) => {
    // @ts-expect-error the body is the subnet create request's output: `label` is a string
    const label: number = ctx.body().label;
    return { label } as never;
  });
  route(VPC_ENDPOINTS.delete, () => undefined); // an Empty answer may be nothing
});
