export function moduleRuleViolations(srcDir: string): string[];
