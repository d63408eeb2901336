/**
 * Property values between the engine's wire form (a `google.protobuf.Struct`) and the engine's
 * plain objects. The plugin declares no secret support, so the engine sends every value plain and
 * itself keeps secret whatever the program made secret (an output of the same name as a secret
 * input stays secret); what the plugin adds is secrecy the program did not ask for: the outputs a
 * spec marks `secret` (a database's root password), a secret data function's result, the token.
 * Configure is the one call that always brings secrets wrapped (`unwrapSecret`).
 */
import type { BinaryReader, BinaryWriter } from "google-protobuf";
import type { JavaScriptValue, Struct, Value } from "google-protobuf/google/protobuf/struct_pb";
import { isRecord } from "../engine/values";

/** Pulumi's marker of a secret value in a struct: `{ [SIG_KEY]: SECRET_SIG, value }`. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Values = Record<string, unknown>;

/** A value wrapped as a secret. */
export const secret = (value: unknown): Values => ({ [SIG_KEY]: SECRET_SIG, value });

/** The value inside a secret wrapper, or the value itself. */
export const unwrapSecret = (value: unknown): unknown => (isRecord(value) && value[SIG_KEY] === SECRET_SIG ? value.value : value);

/** `values` with `undefined` left out at any depth (a struct has no such value) and the keys `secrets` names wrapped as secrets. */
export function structValues(values: Values, secrets: readonly string[] = []): Record<string, JavaScriptValue> {
  const out: Record<string, JavaScriptValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const plain = defined(value);
    out[key] = (secrets.includes(key) ? secret(plain) : plain) as JavaScriptValue;
  }
  return out;
}

function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : defined(v)));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, defined(v)]])));
  return value;
}

/** A message class of the protocol, as its generated code reads one from a reader. */
export interface ReadableMessage<M> {
  new (): M;
  deserializeBinaryFromReader(message: M, reader: BinaryReader): M;
}

/**
 * Reads requests whose Structs (every property map: olds, news, inputs, the configuration) are
 * decoded straight into plain values, as `valuesOf` gives them: google-protobuf builds a message
 * for every Struct, every value and every map entry, and its `toJavaScript` walks them again,
 * which was a fifth of the plugin's CPU per call. The generated code reads everything else as it
 * always does. The Struct's own layout (`google/protobuf/struct.proto`, a well-known type) is
 * fixed: `fields` (1) a map of string keys (1) to Values (2); a Value one of `null_value` (1),
 * `number_value` (2), `string_value` (3), `bool_value` (4), `struct_value` (5) or `list_value`
 * (6); a ListValue its `values` (1).
 */
export function requestReader(protocol: {
  Reader: typeof BinaryReader;
  Struct: typeof Struct;
}): <M>(type: ReadableMessage<M>, bytes: Uint8Array) => M {
  const { Reader, Struct: StructMessage } = protocol;
  const readMessage = Reader.prototype.readMessage as (this: BinaryReader, message: unknown, read: NestedRead) => void;
  // The generated code reads each sub-message through the reader's `readMessage`: a Struct's fields are read here instead.
  function readStructs(this: BinaryReader, message: unknown, read: NestedRead): void {
    if (message instanceof StructMessage)
      readMessage.call(this, message, (struct, reader) => decoded.set(struct as Struct, structOf(reader)));
    else readMessage.call(this, message, read);
  }
  return (type, bytes) => {
    const reader = new Reader(bytes);
    reader.readMessage = readStructs as BinaryReader["readMessage"];
    return type.deserializeBinaryFromReader(new type(), reader);
  };
}

type NestedRead = (message: unknown, reader: BinaryReader) => void;

/** The plain values read from each Struct of a request (`requestReader`). */
const decoded = new WeakMap<object, Values>();

/** A Struct's values: as `requestReader` read them, else google-protobuf's `toJavaScript` (the same values, keys in the same order). */
export function valuesOf(struct: Struct | undefined): Values {
  if (!struct) return {};
  return decoded.get(struct) ?? struct.toJavaScript();
}

/** A resource's or a function's property map as `valuesOf` reads it, a top-level secret wrapper taken off (`plainTopLevel`). */
export const plainValuesOf = (struct: Struct | undefined): Values => plainTopLevel(valuesOf(struct));

/**
 * `values` with a secret wrapper around a top-level value taken off. The engine never sends this
 * plugin a wrapped value (it declares no secret support), but Pulumi's Go and Python mocks, which
 * `pulumi_compute.testing` answers through this plugin, pass a program's secret input (an
 * `Instance`'s `rootPass`) as the Check answered it: wrapped.
 */
function plainTopLevel(values: Values): Values {
  for (const key in values) {
    if (unwrapSecret(values[key]) !== values[key]) {
      return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, unwrapSecret(v)]));
    }
  }
  return values;
}

/** Runs `read` on the message at the reader's field, whatever its type (the reader handles the message's length). */
const readNested = (reader: BinaryReader, read: (reader: BinaryReader) => void): void =>
  reader.readMessage(undefined as never, (_: unknown, nested: BinaryReader) => read(nested));

/** A Struct's fields as a plain object, keys sorted as google-protobuf's map iterates them (and a key given twice, its last value). */
function structOf(reader: BinaryReader): Values {
  const fields = new Map<string, unknown>();
  while (reader.nextField() && !reader.isEndGroup()) {
    if (reader.getFieldNumber() !== 1) {
      reader.skipField();
      continue;
    }
    let key = "";
    let value: unknown;
    let has = false;
    readNested(reader, (entry) => {
      while (entry.nextField() && !entry.isEndGroup()) {
        const field = entry.getFieldNumber();
        if (field === 1) key = entry.readString();
        else if (field === 2) {
          has = true;
          readNested(entry, (nested) => (value = valueOf(nested)));
        } else entry.skipField();
      }
    });
    // An entry without its value holds an empty Value, which google-protobuf refuses to convert.
    if (!has) throw new Error("Unexpected struct type");
    fields.set(key, value);
  }
  const out: Values = {};
  for (const key of [...fields.keys()].sort()) out[key] = fields.get(key);
  return out;
}

/** One Value, as google-protobuf's `toJavaScript` converts it (an empty one is refused as it refuses it). */
function valueOf(reader: BinaryReader): unknown {
  let value: unknown;
  let kinds = 0;
  while (reader.nextField() && !reader.isEndGroup()) {
    kinds += 1;
    switch (reader.getFieldNumber()) {
      case 1:
        reader.readEnum();
        value = null;
        break;
      case 2:
        value = reader.readDouble();
        break;
      case 3:
        value = reader.readString();
        break;
      case 4:
        value = reader.readBool();
        break;
      case 5:
        readNested(reader, (nested) => (value = structOf(nested)));
        break;
      case 6:
        readNested(reader, (list) => {
          const items: unknown[] = [];
          while (list.nextField() && !list.isEndGroup()) {
            if (list.getFieldNumber() === 1) readNested(list, (item) => items.push(valueOf(item)));
            else list.skipField();
          }
          value = items;
        });
        break;
      default:
        kinds -= 1;
        reader.skipField();
    }
  }
  if (kinds === 0) throw new Error("Unexpected struct type");
  return value;
}

/** Writes a response's Structs from their plain values (`plainStructs`). */
export interface PlainStructs {
  /** A Struct of `values` (as `structValues` gives them): built into messages only if something reads it as a message. */
  struct(values: Record<string, JavaScriptValue>): Struct;
  /** A message's bytes, as its `serializeBinary` gives them, its Structs of `struct` written straight from their values. */
  write(message: { serializeBinary(): Uint8Array }): Uint8Array;
}

/** The message classes `plainStructs` writes with. */
interface StructProtocol {
  Writer: typeof BinaryWriter;
  Struct: typeof Struct;
  Value: typeof Value;
}

const plainStructsOf = new WeakMap<typeof Struct, PlainStructs>();

/**
 * The other way of `requestReader`: a response's Structs (every property map the plugin answers:
 * a check's inputs, a create's, read's or update's properties) written straight from plain values
 * into the response's bytes. google-protobuf's `fromJavaScript` builds a message for every Struct,
 * Value and map entry, which its serialization then walks again: the plugin's second largest
 * conversion per call after the requests' reading. The bytes are the same as its own (a map's
 * entries sorted by key, as `jspb.Map` writes them; each Value its one field). A Struct that
 * something reads as a message (a test's `toJavaScript`) is built then, as `fromJavaScript`
 * would have built it. One per protocol: the writer knows its own Structs.
 */
export function plainStructs(protocol: StructProtocol): PlainStructs {
  const known = plainStructsOf.get(protocol.Struct);
  if (known) return known;
  const { Writer, Struct: StructMessage, Value: ValueMessage } = protocol;

  const fieldsMap = StructMessage.prototype.getFieldsMap as (this: Struct, noLazyCreate?: boolean) => ReturnType<Struct["getFieldsMap"]>;

  class PlainStruct extends StructMessage {
    /** The values not yet built into messages. */
    values: Record<string, JavaScriptValue> | undefined;
    constructor(values: Record<string, JavaScriptValue>) {
      super();
      this.values = values;
    }
    // google-protobuf's generated code passes `noLazyCreate`, which its typings leave out.
    override getFieldsMap(noLazyCreate?: boolean): ReturnType<Struct["getFieldsMap"]> {
      const values = this.values;
      if (values !== undefined) {
        this.values = undefined;
        const map = super.getFieldsMap();
        for (const key in values) map.set(key, ValueMessage.fromJavaScript(values[key]!));
      }
      return fieldsMap.call(this, noLazyCreate);
    }
  }

  const writeMessage = Writer.prototype.writeMessage;
  // The generated code writes each sub-message through the writer's `writeMessage`: a plain Struct's fields are written here instead.
  function writePlain(this: BinaryWriter, field: number, message: unknown, write: (message: unknown, writer: BinaryWriter) => void): void {
    if (message instanceof PlainStruct && message.values !== undefined) writeMessage.call(this, field, message.values, writeFields);
    else writeMessage.call(this, field, message, write);
  }

  const plain: PlainStructs = {
    struct: (values) => new PlainStruct(values),
    write: (message) => {
      const serialize = (message.constructor as Partial<SerializableClass>).serializeBinaryToWriter;
      if (!serialize) return message.serializeBinary();
      const writer = new Writer();
      writer.writeMessage = writePlain;
      serialize(message, writer);
      return writer.getResultBuffer();
    },
  };
  plainStructsOf.set(protocol.Struct, plain);
  return plain;
}

interface SerializableClass {
  serializeBinaryToWriter(message: unknown, writer: BinaryWriter): void;
}

/** `null` as `writeMessage` carries it (it writes nothing for `null`): a Value of `null_value`. */
const NULL = Symbol("null");

/** A Struct's fields (1): an entry per key, keys sorted as `jspb.Map` writes them, each its key (1) and Value (2). */
function writeFields(values: Record<string, unknown>, writer: BinaryWriter): void {
  const keys: string[] = [];
  for (const key in values) keys.push(key); // every enumerable key, as `fromJavaScript` takes them
  for (const key of keys.sort()) {
    const value = values[key];
    if (value === undefined) throw new Error("Unexpected struct type.");
    writer.writeMessage(1, key, (_: string, entry: BinaryWriter) => {
      entry.writeString(1, key);
      entry.writeMessage(2, value === null ? NULL : value, writeValue);
    });
  }
}

/** A Value's one field, as google-protobuf's `fromJavaScript` sets it (and what it refuses, refused). */
function writeValue(value: unknown, writer: BinaryWriter): void {
  switch (typeof value) {
    case "string":
      return writer.writeString(3, value);
    case "number":
      return writer.writeDouble(2, value);
    case "boolean":
      return writer.writeBool(4, value);
    case "symbol":
      if (value === NULL) return writer.writeEnum(1, 0);
      break;
    case "object":
      // A ListValue's values (1).
      if (Array.isArray(value))
        return writer.writeMessage(6, value, (items: unknown[], list: BinaryWriter) => {
          for (const item of items) {
            if (item === undefined) throw new Error("Unexpected struct type.");
            list.writeMessage(1, item === null ? NULL : item, writeValue);
          }
        });
      if (value !== null) return writer.writeMessage(5, value, writeFields);
  }
  throw new Error("Unexpected struct type.");
}
