"""The teaching tools: drawings of the graph, explain() in words, the backward stepper, the quiz,
the expression language of `micrograd explain`, and their sentences in English and Chinese.
`micrograd.viz` gives the first four by their first name."""
