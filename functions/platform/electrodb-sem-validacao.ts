/**
 * What the Lambda bundles give ElectroDB in place of `jsonschema` (bundle-options.ts aliases it here).
 *
 * ElectroDB checks each entity's model against its JSON Schema when the entity or service is built,
 * twice for a v1 model (the beta schema fails first), with the whole jsonschema validator: about 28 KiB
 * of every bundle and, measured with --cpu-prof on ConsultaApi's import, over 100 ms of every cold start
 * (issue 39). Our models are constants of the code: the tests build every one from the sources, with
 * the real validator, so a bundle checking them again at each cold start proves nothing new.
 *
 * ElectroDB also asks the validator one real question: whether an object handed to `new Service({...})`
 * is a model (a plain object) or an Entity or Service instance (util.js `getInstanceType`, through
 * `testModel`). The real validator answers it by failing an instance; so does this one, by the mark
 * ElectroDB puts on its instances (`_instance`). infra/test/electrodb-bundle.test.ts checks both
 * answers in a bundle built with this alias.
 */
interface Resultado {
  errors: { property: string; message: string; argument: string }[];
}

export class Validator {
  declare customFormats: Record<string, (input: unknown) => boolean>;

  addSchema(): void {}

  validate(instance: unknown): Resultado {
    const instancia = typeof instance === 'object' && instance !== null && '_instance' in instance;
    return { errors: instancia ? [{ property: 'instance', message: 'is an ElectroDB entity or service, not a model', argument: '' }] : [] };
  }
}

// ElectroDB registers its custom formats on the prototype before it creates its validator.
Validator.prototype.customFormats = {};
