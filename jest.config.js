/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // ESM-only packages are compiled to CommonJS for jest (Node itself loads them with require(esm)).
  // The pattern looks at the innermost node_modules segment, so nested copies are covered too.
  transformIgnorePatterns: [
    '/node_modules/(?!(?:iso-3166|@scure|@noble|jose|dinero\\.js|@dinero\\.js|base58-js|bs58check|base-x)/)(?!.*/node_modules/)',
  ],
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/.tools', '<rootDir>/clients/typescript/dist'],
  // The client package's sources import each other as `./x.js`, as Node's ESM wants; jest runs the .ts.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/global-setup.ts',
  setupFiles: ['<rootDir>/test/grpc-retry-guard.ts'],
  reporters: ['default', '<rootDir>/test/reporters/closing-line.js'],
  testTimeout: 60_000,
  // The suite runs in one worker on two cores; a worker over this much heap after a file is replaced
  // (jest keeps some of each file's modules alive, about 15 MB a file, and the suite has 230).
  workerIdleMemoryLimit: '1500MB',
  // Temporal's native bridge keeps a harmless handle open after teardown (sdk-typescript #928).
  forceExit: true,
};
