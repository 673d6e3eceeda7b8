import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/tmp/**', '**/*.cjs', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:launcher', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
            { sourceTag: 'scope:account', onlyDependOnLibsWithTags: ['scope:shared', 'scope:account'] },
            { sourceTag: 'scope:customer', onlyDependOnLibsWithTags: ['scope:shared', 'scope:customer'] },
            { sourceTag: 'scope:invoice', onlyDependOnLibsWithTags: ['scope:shared', 'scope:invoice'] },
            { sourceTag: 'scope:document', onlyDependOnLibsWithTags: ['scope:shared', 'scope:document'] },
            { sourceTag: 'scope:vat', onlyDependOnLibsWithTags: ['scope:shared', 'scope:vat'] },
            { sourceTag: 'scope:export', onlyDependOnLibsWithTags: ['scope:shared', 'scope:export'] },
            { sourceTag: 'scope:quota', onlyDependOnLibsWithTags: ['scope:shared', 'scope:quota'] },
            { sourceTag: 'scope:test', onlyDependOnLibsWithTags: ['scope:shared'] }
          ]
        }
      ]
    }
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', '**/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' }
  }
];
