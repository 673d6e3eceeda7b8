// mongosh script (run by the mongodb-init-replica-set Job): initiate replica set rs0 once.
// MEMBERS, MEMBER_HOST_TEMPLATE ("{i}" = ordinal), MONGO_USERNAME and MONGO_PASSWORD come from the Job.
const members = Number(process.env.MEMBERS || '3');
const hostOf = (i) => process.env.MEMBER_HOST_TEMPLATE.replace('{i}', String(i));
const hosts = Array.from({ length: members }, (_, i) => hostOf(i));

// Waits until every member answers ping (allowed without authentication before the set exists).
function waitFor(host) {
  for (let attempt = 1; ; attempt++) {
    try {
      const conn = new Mongo(`mongodb://${host}/?directConnection=true&serverSelectionTimeoutMS=3000`);
      conn.getDB('admin').runCommand({ ping: 1 });
      return;
    } catch (err) {
      if (attempt >= 60) throw new Error(`${host} did not answer: ${err.message}`);
      print(`waiting for ${host} (${err.message})`);
      sleep(5000);
    }
  }
}
hosts.forEach(waitFor);

const user = encodeURIComponent(process.env.MONGO_USERNAME);
const password = encodeURIComponent(process.env.MONGO_PASSWORD);
const admin = new Mongo(`mongodb://${user}:${password}@${hosts[0]}/admin?directConnection=true&authSource=admin`).getDB('admin');

// mongosh throws on { ok: 0 } answers; turn them back into answers so the codes can be checked.
function run(db, command) {
  try {
    return db.runCommand(command);
  } catch (err) {
    return { ok: 0, code: err.code, codeName: err.codeName, errmsg: err.message };
  }
}

const status = run(admin, { replSetGetStatus: 1 });
if (status.ok === 1) {
  print(`replica set ${status.set} already initiated; nothing to do`);
  quit(0);
}
// 94 NotYetInitialized is the only state we act on; anything else (e.g. auth failure) fails the Job.
if (status.code !== 94) throw new Error(`unexpected replSetGetStatus answer: ${JSON.stringify(status)}`);

const config = {
  _id: 'rs0',
  // Member 0 is preferred as primary so a healthy set comes back with the same primary.
  members: hosts.map((host, i) => ({ _id: i, host, priority: i === 0 ? 2 : 1 })),
};
const result = run(admin, { replSetInitiate: config });
if (result.ok !== 1) throw new Error(`replSetInitiate failed: ${JSON.stringify(result)}`);
print(`replica set rs0 initiated with ${hosts.join(', ')}`);

for (let attempt = 1; !run(admin, { hello: 1 }).isWritablePrimary; attempt++) {
  if (attempt >= 60) throw new Error('no primary elected after initiating rs0');
  sleep(2000);
}
print('primary elected');
