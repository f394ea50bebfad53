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
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/.tools'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  reporters: ['default', '<rootDir>/test/reporters/closing-line.js'],
  testTimeout: 60_000,
  // Temporal's native bridge keeps a harmless handle open after teardown (sdk-typescript #928).
  forceExit: true,
};
