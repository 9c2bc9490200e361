// A small typed client: graphql-request with the documents GraphQL Code Generator typed
// from the host's schema (.gen/gql, see codegen.ts). tsc must accept the uses below,
// which only a schema that types Data element by element allows, and refuse the ones
// marked @ts-expect-error; run, the client checks that the values have those types.
//
//   node .gen/out/typed-client.js <endpoint>
import assert from 'node:assert/strict';
import { GraphQLClient } from 'graphql-request';
import { HomeDocument, PagesDocument, ProductsDocument } from './.gen/gql/graphql.js';
import type { CardFragment, PagesQuery, ProductsQuery } from './.gen/gql/graphql.js';

const endpoint = process.argv[2];
if (!endpoint) throw new Error('usage: node typed-client.js <endpoint>');
const client = new GraphQLClient(endpoint);

// Type equality, to hold the generated types to what the schema promises.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | void {}

type Card = CardFragment;
type CardData = NonNullable<Card['Data']>;
expectType<Equal<PagesQuery['contentPage']['totalItems'], number>>();
expectType<Equal<Card['ContentID'], string>>();
expectType<Equal<CardData['title'], string | null>>();
expectType<Equal<CardData['showInMenu'], boolean | null>>();
expectType<Equal<CardData['menuOrder'], number | null>>();
expectType<Equal<NonNullable<CardData['hero']>['MediaUrl'], string | null>>();
type Product = ProductsQuery['products'][number];
type ProductData = NonNullable<Product['Data']>;
expectType<Equal<ProductData['price'], number | null>>();
expectType<Equal<ProductData['colors'], Array<string> | null>>();

const pages = await client.request(PagesDocument, { size: 3 });
const total: number = pages.contentPage.totalItems;
const first: Card = pages.contentPage.items[0];
const title: string | null | undefined = first.Data?.title;
const order: number | null | undefined = first.Data?.menuOrder;
// @ts-expect-error: ContentData has no element "nope"
void first.Data?.nope;
// @ts-expect-error: totalItems is a number
const wrong: string = pages.contentPage.totalItems;
void wrong;

assert.equal(total, 8);
assert.equal(pages.contentPage.items.length, 3);
assert.equal(typeof title, 'string');
assert.equal(typeof order, 'number');
assert.equal(typeof first.Data?.showInMenu, 'boolean');
const hero = first.Data?.hero;
assert.ok(hero === null || typeof hero?.MediaUrl === 'string', 'hero is a MediaReference or null');

const products = await client.request(ProductsDocument, { size: 3 });
const prices = products.products.map((p) => p.Data?.price ?? NaN);
assert.deepEqual([...prices].sort((a, b) => a - b), prices, 'sorted by Data.price');
for (const p of products.products) {
  assert.equal(typeof p.Data?.price, 'number');
  assert.ok(p.ParentID === null, 'ParentID answers null for an item without it');
  const colors: string[] | null | undefined = p.Data?.colors;
  assert.ok(colors === null || Array.isArray(colors));
}

const home = await client.request(HomeDocument, { id: 'Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4' });
const ids: string[] | null | undefined = home.content[0].Data?.featured?.ContentIDs;
assert.equal(ids?.length, 3);
assert.equal((home.content[0].DataJSON as { urlPath?: string }).urlPath, "/home");

process.stdout.write('ok   typed client (GraphQL Code Generator + tsc)\n');
