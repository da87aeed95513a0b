/* Helpers only: there is no cooperative kernel. */
uint twice(uint x)
{
    return 2 * x;
}
