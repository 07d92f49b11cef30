"""The game-log language (``.sglog``): its syntax tree, words, grammar and reader."""
