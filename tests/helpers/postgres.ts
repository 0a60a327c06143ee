/**
 * A private Postgres cluster for tests (scripts/lib/postgres-cluster.ts): Debian's binaries in a
 * temporary directory on a free loopback port, one database per test, never the system's cluster;
 * a missing Postgres fails naming `apt-get install -y postgresql`.
 */
export {
  type ClusterOptions,
  INSTALL_HINT,
  type PostgresCluster,
  postgresBinDir,
  startPostgres,
} from "../../scripts/lib/postgres-cluster.js";
