// The default case of a switch that decides over every member of a union (a Route, an ending): the
// value there has the type `never`, so a member added to the union and left out of the switch does not
// compile. lint's switch-exhaustiveness-check names the switch too; at run time it is never reached.

/** Throws for a value no member of the union describes: a bug, worded as one. */
export function assertNever(value: never, what: string): never {
  throw new Error(`Unexpected ${what} ${JSON.stringify(value)}: this is a bug in the action; please report it.`)
}
