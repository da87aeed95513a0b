kernel void in_expression(global uint *data)
{
    transmit uint round = 0;
    while (round < 4) {
        round += (offer_fork(), 1);
    }
}
