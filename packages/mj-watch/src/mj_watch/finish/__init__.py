"""`mj-watch finish`: the finish contract (`contract`) judged over the finish facts (`judge`)."""
