'use strict';
// Checks Backstage catalog files with Backstage's own packages, as a
// Backstage instance would read them, and renders a template's steps as
// the scaffolder does. run.sh installs the packages package-lock.json
// pins and runs it; go test ./backstage runs run.sh.
//
//   validate FILE...       every document of each file: the catalog's
//                          entity policies and kind validators
//                          (@backstage/catalog-model), the scaffolder's
//                          Template validator (@backstage/plugin-scaffolder-common),
//                          and for templates: each form page compiles as a
//                          JSON Schema, each step's action is one the
//                          instance installs, every ${{ }} and {% %} parses
//                          in the scaffolder's template engine (nunjitsu)
//                          and names parameters and steps that exist.
//                          Prints file:line:col: problem; fix, exits 1 on
//                          any problem.
//   render TEMPLATE ANSWERS.json
//                          prints, as JSON (a list for a list of answers),
//                          the form errors of the answers
//                          (ajv, draft-07, as the scaffolder's form
//                          validator) and the steps' inputs and the output
//                          rendered as the scaffolder's workflow runner
//                          does (NunjucksWorkflowRunner.render in
//                          @backstage/plugin-scaffolder-backend 4.3.0).
//                          ANSWERS.json: {parameters, environment, user,
//                          steps: {<id>: <output>}}.
//
// Pages relied on: backstage.io/docs/features/software-templates/writing-templates
// (the v1beta3 format), .../builtin-actions, the catalog's descriptor
// format (backstage.io/docs/features/software-catalog/descriptor-format),
// and the packages' sources: plugin-scaffolder-common's
// templateEntityV1beta3Validator, catalog-model's EntityPolicies, and
// plugin-scaffolder-backend's NunjucksWorkflowRunner and default filters
// (parseRepoUrl, parseEntityRef, pick, projectSlug).

const fs = require('fs');
const YAML = require('yaml');
const Ajv = require('ajv');
const lodash = require('lodash');
const nunjitsu = require('nunjitsu');
const cm = require('@backstage/catalog-model');
const sc = require('@backstage/plugin-scaffolder-common');

// The actions the Backstage instance installs, by the module that brings
// them (backstage/README.md): a template using any other fails to run.
const ACTIONS = {
  '@backstage/plugin-scaffolder-backend (built in)': [
    'fetch:plain', 'fetch:plain:file', 'fetch:template', 'fetch:template:file',
    'catalog:register', 'catalog:fetch', 'catalog:write', 'debug:log', 'debug:wait',
    'fs:delete', 'fs:rename',
  ],
  '@backstage/plugin-scaffolder-backend-module-github': [
    'publish:github', 'publish:github:pull-request', 'github:actions:dispatch',
  ],
  '@roadiehq/scaffolder-backend-module-utils': [
    'roadiehq:utils:fs:append', 'roadiehq:utils:fs:write', 'roadiehq:utils:fs:parse',
    'roadiehq:utils:fs:replace', 'roadiehq:utils:merge', 'roadiehq:utils:serialize:yaml',
    'roadiehq:utils:serialize:json',
  ],
  '@roadiehq/scaffolder-backend-module-http-request': ['http:backstage:request'],
};
const KNOWN_ACTIONS = new Map(
  Object.entries(ACTIONS).flatMap(([mod, ids]) => ids.map(id => [id, mod])),
);

// The scaffolder's default template filters (plugin-scaffolder-backend,
// lib/templating/filters): parseEntityRef is catalog-model's, pick is
// lodash's get; parseRepoUrl and projectSlug need the instance's SCM
// integrations, so here they only parse.
const FILTERS = {
  parseEntityRef: (ref, context) => cm.parseEntityRef(ref, context ?? undefined),
  pick: (obj, key) => lodash.get(obj, key),
  parseRepoUrl: url => {
    const u = new URL(`https://${url}`);
    return { host: u.host, owner: u.searchParams.get('owner') ?? undefined, repo: u.searchParams.get('repo') ?? undefined };
  },
  projectSlug: url => {
    const u = new URL(`https://${url}`);
    return `${u.searchParams.get('owner')}/${u.searchParams.get('repo')}`;
  },
};

const renderer = nunjitsu.createTemplateRenderer({ allowRegexExecution: true, filters: FILTERS });

const POLICY = cm.EntityPolicies.allOf([
  new cm.SchemaValidEntityPolicy(),
  new cm.DefaultNamespaceEntityPolicy(),
  new cm.NoForeignRootFieldsEntityPolicy(),
  new cm.FieldFormatEntityPolicy(),
]);
const KIND_VALIDATORS = [
  sc.templateEntityV1beta3Validator,
  cm.componentEntityV1alpha1Validator, cm.apiEntityV1alpha1Validator, cm.domainEntityV1alpha1Validator,
  cm.groupEntityV1alpha1Validator, cm.locationEntityV1alpha1Validator, cm.resourceEntityV1alpha1Validator,
  cm.systemEntityV1alpha1Validator, cm.userEntityV1alpha1Validator,
];
const ROOT_FIELDS = ['apiVersion', 'kind', 'metadata', 'spec', 'relations', 'status'];
const FORMAT = 'https://backstage.io/docs/features/software-catalog/descriptor-format';

const problems = [];

// Document is one YAML document of a file, with what locates its nodes.
class Document {
  constructor(file, doc, lineCounter, text) {
    this.file = file;
    this.doc = doc;
    this.lc = lineCounter;
    this.lines = text.split('\n');
  }

  // within is the file position of the line-th line and col-th column
  // (1-based) of the string at path: a block scalar's lines start on the
  // line after its indicator, at its indentation.
  within(path, line, col) {
    const at = this.at(path);
    const block = at.node && (at.node.type === 'BLOCK_LITERAL' || at.node.type === 'BLOCK_FOLDED');
    if (!block) return { line: at.line + line - 1, col: line === 1 ? at.col + col - 1 : col };
    const first = this.lines[at.line] ?? '';
    const value = String(at.node.value).split('\n')[0];
    const indent = (first.length - first.trimStart().length) - (value.length - value.trimStart().length);
    return { line: at.line + line, col: indent + col };
  }

  addWithin(path, line, col, message, fix) {
    problems.push({ file: this.file, ...this.within(path, line, col), message, fix });
  }

  // at returns the line and column of the node at path (keys and
  // indexes), or of its nearest ancestor that exists.
  at(path) {
    let node = this.doc.contents;
    let best = node;
    for (const key of path) {
      if (YAML.isMap(node)) {
        const pair = node.items.find(p => p.key && String(p.key.value ?? p.key) === String(key));
        if (!pair) break;
        best = pair.value ?? pair.key;
        node = pair.value;
      } else if (YAML.isSeq(node)) {
        const item = node.items[Number(key)];
        if (item === undefined) break;
        best = item;
        node = item;
      } else {
        break;
      }
    }
    const offset = best && best.range ? best.range[0] : 0;
    return { ...this.lc.linePos(offset), node: best };
  }

  add(path, message, fix) {
    const { line, col } = this.at(path);
    problems.push({ file: this.file, line, col, message, fix });
  }
}

function splitPointer(pointer) {
  return pointer.split('/').slice(1).map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

// locateError turns a validator's or policy's message into a path.
function locateError(message) {
  let m = message.match(/(?:^|Malformed envelope, )(\/\S*) (.*)$/);
  if (m) return { path: splitPointer(m[1]), message: `${m[1]} ${m[2]}` };
  m = message.match(/^"([^"]+)" is not valid; (.*?)(?:\. To learn more.*)?$/s);
  if (m) {
    const field = m[1];
    let path;
    const am = field.match(/^(annotations|labels)\.(.*)$/);
    if (am) path = ['metadata', am[1], am[2]];
    else path = field.split('.');
    if (!['metadata', 'spec', 'apiVersion', 'kind', 'relations', 'status'].includes(path[0])) path.unshift('metadata');
    return { path, message: `${field} is not valid: ${m[2]}` };
  }
  return { path: [], message };
}

function fixFor(message) {
  let m = message.match(/must have required property '([^']+)'/);
  if (m) return `add ${m[1]} here (${FORMAT})`;
  if (/must NOT have additional properties/.test(message)) return `remove the fields Backstage does not define here (${FORMAT})`;
  m = message.match(/must be equal to one of the allowed values.*?allowedValues: (.*)$/);
  if (m) return `use one of ${m[1]}`;
  m = message.match(/must be (array|object|string|boolean|number|integer)/);
  if (m) return `write it as ${m[1] === 'array' || m[1] === 'object' || m[1] === 'integer' ? 'an' : 'a'} ${m[1]}`;
  m = message.match(/expected (.*?) but found/);
  if (m) return `write it as ${m[1]}`;
  m = message.match(/must NOT have fewer than (\d+) characters/);
  if (m) return `give it a value (at least ${m[1]} characters)`;
  return `see ${FORMAT}`;
}

async function validateFile(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    problems.push({ file, line: 0, col: 0, message: `cannot read: ${e.message}`, fix: 'check the path' });
    return 0;
  }
  const lc = new YAML.LineCounter();
  const docs = YAML.parseAllDocuments(text, { lineCounter: lc, prettyErrors: false });
  let n = 0;
  for (const doc of docs) {
    if (doc.errors.length) {
      for (const e of doc.errors) {
        const { line, col } = lc.linePos(e.pos[0]);
        problems.push({ file, line, col, message: `YAML: ${e.message.split('\n')[0]}`, fix: 'correct the YAML syntax (the catalog parses it with the yaml package)' });
      }
      continue;
    }
    const entity = doc.toJS();
    if (entity === null || entity === undefined) continue;
    n++;
    await validateEntity(new Document(file, doc, lc, text), entity);
  }
  if (n === 0 && problems.every(p => p.file !== file)) {
    problems.push({ file, line: 1, col: 1, message: 'no entity in the file', fix: 'write a catalog entity (apiVersion, kind, metadata, spec)' });
  }
  return n;
}

async function validateEntity(d, entity) {
  if (typeof entity !== 'object' || Array.isArray(entity)) {
    d.add([], 'the document is not a mapping', `write an entity: apiVersion, kind, metadata, spec (${FORMAT})`);
    return;
  }
  for (const key of Object.keys(entity)) {
    if (!ROOT_FIELDS.includes(key)) {
      d.add([key], `unknown root field ${key}`, `remove it, or move it under spec: an entity's root holds only ${ROOT_FIELDS.join(', ')}`);
    }
  }
  const report = e => {
    if (!/<root> must NOT have additional properties/.test(e.message)) {
      const { path, message } = locateError(e.message);
      d.add(path, message, fixFor(e.message));
    }
  };
  // The catalog applies its policies, then the kind's validator; each
  // stops at its first problem, so each runs on its own here.
  try {
    await POLICY.enforce(JSON.parse(JSON.stringify(entity)));
  } catch (e) {
    report(e);
  }
  try {
    const copy = JSON.parse(JSON.stringify(entity));
    if (copy.metadata && typeof copy.metadata === 'object' && copy.metadata.namespace === undefined) copy.metadata.namespace = cm.DEFAULT_NAMESPACE;
    let claimed = false;
    for (const v of KIND_VALIDATORS) {
      if (await v.check(copy)) {
        claimed = true;
        break;
      }
    }
    if (!claimed) {
      d.add(['kind'], `no Backstage validator accepts apiVersion ${entity.apiVersion} kind ${entity.kind}`,
        'use a kind Backstage defines, e.g. apiVersion scaffolder.backstage.io/v1beta3 kind Template, or backstage.io/v1alpha1 Component');
    }
  } catch (e) {
    report(e);
  }
  if (entity.kind === 'Template') checkTemplate(d, entity);
}

// segments are the template expressions of a string: ${{ }} and {% %}.
function segments(s) {
  const out = [];
  const re = /\$\{\{([\s\S]*?)\}\}|\{%-?([\s\S]*?)-?%\}/g;
  let m;
  while ((m = re.exec(s))) {
    const text = m[1] ?? m[2];
    out.push({ text, offset: m.index + m[0].indexOf(text) });
  }
  return out;
}

function walkStrings(value, path, fn) {
  if (typeof value === 'string') fn(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => walkStrings(v, [...path, i], fn));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walkStrings(v, [...path, k], fn);
}

function pages(spec) {
  if (spec.parameters === undefined) return [];
  return Array.isArray(spec.parameters) ? spec.parameters : [spec.parameters];
}

// As the scaffolder's form validator (@rjsf/validator-ajv8): draft-07,
// unknown keywords (ui:*, errorMessage) ignored. One instance: each
// compiles the meta-schema anew.
let ajv;
function newAjv() {
  ajv ??= new Ajv({ strict: false, allErrors: true });
  return ajv;
}

function checkTemplate(d, t) {
  const spec = t.spec && typeof t.spec === 'object' ? t.spec : {};
  const paramsPath = ['spec', 'parameters'];
  const declared = new Set();
  pages(spec).forEach((p, i) => {
    const path = Array.isArray(spec.parameters) ? [...paramsPath, i] : paramsPath;
    if (!p || typeof p !== 'object') return; // the validator reports it
    for (const k of Object.keys(p.properties ?? {})) declared.add(k);
    for (const r of p.required ?? []) {
      if (!(p.properties ?? {})[r]) {
        d.add([...path, 'required'], `required names ${r}, which the page does not ask`, `add ${r} to this page's properties, or remove it from required`);
      }
    }
    try {
      newAjv().compile(p);
    } catch (e) {
      d.add(path, `the form page is not a valid JSON Schema: ${e.message}`, 'correct the page: a JSON Schema (draft-07) of the answers, with ui: options beside');
    }
  });
  const steps = Array.isArray(spec.steps) ? spec.steps : [];
  const ids = new Map();
  const allIds = new Set(steps.map(s => s && s.id).filter(Boolean));
  steps.forEach((s, i) => {
    if (!s || typeof s !== 'object') return;
    const at = ['spec', 'steps', i];
    if (s.id === undefined) {
      d.add(at, 'the step has no id', 'give it an id: its output is read as steps.<id>.output');
    } else if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(String(s.id))) {
      d.add([...at, 'id'], `step id ${s.id} is not an identifier: steps.${s.id}.output would not read it`, 'write it in camelCase, e.g. openPullRequest');
    } else if (ids.has(s.id)) {
      d.add([...at, 'id'], `step id ${s.id} is used twice`, 'give each step its own id');
    }
    if (typeof s.action === 'string' && !KNOWN_ACTIONS.has(s.action)) {
      d.add([...at, 'action'], `action ${s.action} is not one the Backstage instance installs`,
        `use one of ${[...KNOWN_ACTIONS.keys()].join(', ')}; or install its module and list it in backstage/check/check.cjs (ACTIONS) and backstage/README.md`);
    }
    const earlier = new Set(ids.keys());
    checkExpressions(d, { input: s.input, if: s.if }, at, declared, earlier, allIds);
    if (s.id !== undefined) ids.set(s.id, i);
  });
  if (spec.output) checkExpressions(d, spec.output, ['spec', 'output'], declared, new Set(ids.keys()), allIds, true);
}

let probe;

function checkExpressions(d, value, at, declared, earlier, allIds, isOutput = false) {
  probe ??= renderer.prepareContext({ parameters: {}, steps: {}, user: {}, environment: { parameters: {}, secrets: {} }, context: {} });
  walkStrings(value, at, (s, path) => {
    if (!s.includes('${{') && !s.includes('{%')) return;
    try {
      renderer.renderValue(s, probe, { coercion: 'json' });
    } catch (e) {
      if (e instanceof nunjitsu.TemplateRenderError && (e.phase === 'parse' || /Unknown template filter/.test(e.message))) {
        d.addWithin(path, e.line ?? 1, e.column ?? 1, `template expression: ${e.message}`,
          /Unknown template filter/.test(e.message)
            ? `use one of the scaffolder's filters (${Object.keys(FILTERS).join(', ')}) or the engine's own (dump, replace, length, ...)`
            : 'correct the expression: ${{ ... }} or {% ... %}, in the scaffolder\'s template language');
      }
    }
    // Where in s a match is: its line and column (1-based).
    const where = offset => {
      const before = s.slice(0, offset);
      const line = before.split('\n').length;
      return [line, offset - before.lastIndexOf('\n')];
    };
    for (const seg of segments(s)) {
      for (const m of seg.text.matchAll(/(?<![\w.$])parameters\.([A-Za-z_$][\w$]*)/g)) {
        if (!declared.has(m[1])) {
          d.addWithin(path, ...where(seg.offset + m.index), `parameters.${m[1]} is not a field of the form`,
            `add ${m[1]} to a page of spec.parameters, or name one of ${[...declared].join(', ')}`);
        }
      }
      for (const m of seg.text.matchAll(/(?<![\w.$])steps(?:\.([A-Za-z_$][\w$]*)|\[["']([^"']+)["']\])/g)) {
        const id = m[1] ?? m[2];
        if (!earlier.has(id)) {
          d.addWithin(path, ...where(seg.offset + m.index),
            allIds.has(id) && !isOutput ? `steps.${id} runs after this step` : `steps.${id} is no step of the template`,
            allIds.has(id) && !isOutput ? `move step ${id} before this one` : `name an earlier step: ${[...earlier].join(', ') || '(none)'}`);
        }
      }
    }
  });
}

// render renders a template's steps and output as the workflow runner
// does: each string through renderValue with JSON coercion, a string that
// fails to render kept as written, steps whose if is falsy skipped.
function render(templateFile, answersFile) {
  const t = YAML.parse(fs.readFileSync(templateFile, 'utf8'));
  const all = JSON.parse(fs.readFileSync(answersFile, 'utf8'));
  const validators = pages(t.spec).map(p => ({ title: p.title, validate: newAjv().compile(p) }));
  const one = answers => {
    const formErrors = [];
    validators.forEach(({ title, validate }, i) => {
      if (!validate(answers.parameters ?? {})) {
        for (const e of validate.errors) formErrors.push(`page ${i + 1} (${title}): ${e.instancePath || '/'} ${e.message}`);
      }
    });
    const context = {
      parameters: answers.parameters ?? {},
      environment: { parameters: answers.environment ?? {}, secrets: {} },
      steps: {},
      user: answers.user ?? {},
      context: { task: { id: 'check' } },
    };
    let prepared = renderer.prepareContext(context);
    const renderValue = input => JSON.parse(JSON.stringify(input), (_k, v) => {
      try {
        if (typeof v === 'string') return renderer.renderValue(v, prepared, { coercion: 'json' });
      } catch {
        return v;
      }
      return v;
    });
    const isTruthy = v => !(v === false || v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0));
    const steps = [];
    for (const s of t.spec.steps) {
      if (s.if === false || (typeof s.if === 'string' && !isTruthy(renderValue(s.if)))) {
        steps.push({ id: s.id, action: s.action, skipped: true });
        continue;
      }
      steps.push({ id: s.id, action: s.action, input: renderValue(s.input ?? {}) });
      const output = (answers.steps ?? {})[s.id] ?? {};
      context.steps[s.id] = { output };
      prepared = prepared.withValue(['steps', s.id], { output });
    }
    return { formErrors, steps, output: renderValue(t.spec.output ?? {}) };
  };
  const out = Array.isArray(all) ? all.map(one) : one(all);
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

async function main() {
  const [cmd, ...args] = process.argv.slice(2);
  if (cmd === 'render' && args.length === 2) {
    render(args[0], args[1]);
    return 0;
  }
  if (cmd !== 'validate' || args.length === 0) {
    process.stderr.write('usage: check.cjs validate FILE... | render TEMPLATE ANSWERS.json\n');
    return 2;
  }
  let entities = 0;
  for (const f of args) entities += await validateFile(f);
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
  for (const p of problems) process.stdout.write(`${p.file}:${p.line}:${p.col}: ${p.message}; ${p.fix}\n`);
  if (problems.length) {
    process.stdout.write(`${problems.length} problem(s) in ${args.length} file(s)\n`);
    return 1;
  }
  process.stdout.write(`ok: ${entities} entities in ${args.length} file(s)\n`);
  return 0;
}

main().then(code => { process.exitCode = code; }, e => { process.stderr.write(`${e.stack}\n`); process.exitCode = 2; });
