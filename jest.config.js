/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/.tools'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  testTimeout: 60_000,
  // Temporal's native bridge keeps a harmless handle open after teardown (sdk-typescript #928).
  forceExit: true,
};
